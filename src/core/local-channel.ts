/** Plain data of the console's local channel, shared by its transport (web) and the store that keeps its messages. */
import type { Speaker } from './domain.ts';
import type { MessageAction, ReplyButton, ReplyReference } from './ports.ts';

/** A message shown in a local room, as the services delivered it. */
export interface LocalDelivery {
  externalId: string;
  roomId: string;
  speaker: Speaker;
  content: string;
  replyTo: ReplyReference[];
  actions: MessageAction[];
  /** Command buttons under it (the closing's "Done n"); the console runs them as the person. */
  buttons: ReplyButton[];
  simulated: boolean;
  deliveredAt: string;
}

/**
 * Where the local channel keeps what it showed. The local channel is the console's Discord: as Discord keeps a
 * thread's messages, a restart (or another process's console) must show the room as it was, notices and buttons
 * included, not only the transcript the sessions store.
 */
export interface LocalDeliveryStore {
  /** Keeps a delivery; saving one already kept (a retried delivery) changes nothing. */
  save(delivery: LocalDelivery): Promise<void>;
  /** The room's newest `limit` deliveries, oldest first. */
  listForRoom(roomId: string, limit: number): Promise<LocalDelivery[]>;
}
