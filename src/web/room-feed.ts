/** Merges a local room's deliveries into a session's stored transcript, so each message shows once. */
import type { TranscriptMessage } from '../services/console/console-types.ts';
import type { MessageAction, ReplyButton } from '../core/ports.ts';
import type { LocalDelivery } from './local-transport.ts';

/** One entry of a session page's transcript. */
export type FeedItem =
  | { kind: 'message'; message: TranscriptMessage; actions: MessageAction[]; buttons: ReplyButton[]; externalId: string | null }
  | { kind: 'notice'; delivery: LocalDelivery };

function sameWords(message: TranscriptMessage, delivery: LocalDelivery): boolean {
  return message.speaker.name === delivery.speaker.name && message.text.trim() === delivery.content.trim();
}

/**
 * Pairs each delivery with its stored message: by external id when the services recorded it, else by
 * speaker and text (a delivery can reach the page before its message's ids are written). Deliveries with
 * no stored message (notices) are kept in time order.
 */
export function mergeRoomFeed(messages: TranscriptMessage[], deliveries: LocalDelivery[]): FeedItem[] {
  const items: FeedItem[] = messages.map((message) => ({ kind: 'message', message, actions: [], buttons: [], externalId: null }));
  const byExternalId = new Map<string, number>();
  messages.forEach((message, index) => message.externalIds.forEach((externalId) => byExternalId.set(externalId, index)));
  const paired = new Set<number>();
  const notices: LocalDelivery[] = [];
  for (const delivery of deliveries) {
    let index = byExternalId.get(delivery.externalId);
    if (index === undefined)
      index = messages.findIndex((message, position) => !paired.has(position) && message.externalIds.length === 0 && sameWords(message, delivery));
    const item = index === undefined || index < 0 ? undefined : items[index];
    if (item?.kind !== 'message') {
      notices.push(delivery);
      continue;
    }
    paired.add(index as number);
    item.actions = delivery.actions;
    item.buttons = delivery.buttons;
    item.externalId = delivery.externalId;
  }
  return insertNotices(items, notices);
}

function timeOf(item: FeedItem): string {
  return item.kind === 'message' ? item.message.createdAt : item.delivery.deliveredAt;
}

function insertNotices(items: FeedItem[], notices: LocalDelivery[]): FeedItem[] {
  if (notices.length === 0) return items;
  const merged: FeedItem[] = [];
  let next = 0;
  for (const item of items) {
    while (next < notices.length && (notices[next] as LocalDelivery).deliveredAt < timeOf(item))
      merged.push({ kind: 'notice', delivery: notices[next++] as LocalDelivery });
    merged.push(item);
  }
  while (next < notices.length) merged.push({ kind: 'notice', delivery: notices[next++] as LocalDelivery });
  return merged;
}
