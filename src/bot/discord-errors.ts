/** Discord failures turned into typed errors the outbox can act on (retry or give up) and people can read. */
import { DiscordAPIError, HTTPError, RateLimitError, RESTJSONErrorCodes } from 'discord.js';
import { BrainstormError, type BrainstormErrorCode } from '../core/errors.ts';

/** What went wrong, in Discord's terms. */
export type DiscordFailure =
  | 'missing_permissions'
  | 'missing_access'
  | 'unknown_channel'
  | 'unknown_message'
  | 'unknown_webhook'
  | 'not_editable'
  | 'thread_closed'
  | 'invalid_form_body'
  | 'rate_limited'
  | 'unavailable'
  | 'unknown';

/** A Discord failure with a BrainstormError `code`, Discord's own code, and whether trying again can help. */
export class DiscordTransportError extends BrainstormError {
  /** How long Discord asked us to wait, when it said. */
  readonly retryAfterMs: number | null;

  constructor(
    code: BrainstormErrorCode,
    message: string,
    readonly failure: DiscordFailure,
    readonly retryable: boolean,
    readonly discordCode: number | null,
    readonly status: number | null,
    options?: { cause?: unknown; retryAfterMs?: number },
  ) {
    super(code, message, options);
    this.retryAfterMs = options?.retryAfterMs ?? null;
  }

  /** Whether the room itself is gone (its thread or channel deleted) or closed to us (archived and locked). */
  get roomGone(): boolean {
    return this.failure === 'unknown_channel' || this.failure === 'thread_closed';
  }
}

/** True when `error` is Discord saying the thing does not exist (any Unknown X). */
export function isUnknownResource(error: unknown, code?: number): boolean {
  return error instanceof DiscordAPIError && error.status === 404 && (code === undefined || error.code === code);
}

/** True for 50013 Missing Permissions. */
export function isMissingPermissions(error: unknown): boolean {
  return error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.MissingPermissions;
}

/**
 * Maps any error from discord.js to a DiscordTransportError. `action` says what we were doing and `permission`
 * names the Discord permission it needs, so a refusal tells people exactly what to grant.
 */
export function toTransportError(error: unknown, action: string, permission?: string): DiscordTransportError {
  if (error instanceof DiscordTransportError) return error;
  if (error instanceof DiscordAPIError) return fromApiError(error, action, permission);
  if (error instanceof RateLimitError) {
    return new DiscordTransportError('rate_limited', `Discord asked us to slow down while trying to ${action}.`, 'rate_limited', true, null, 429, {
      cause: error,
      retryAfterMs: error.retryAfter,
    });
  }
  if (error instanceof HTTPError) {
    return new DiscordTransportError(
      'service_unavailable',
      `Discord is not answering (${error.status}) while we ${action}.`,
      'unavailable',
      true,
      null,
      error.status,
      {
        cause: error,
      },
    );
  }
  // Network failures (connection refused/reset, timeouts) after discord.js's own retries.
  return new DiscordTransportError('service_unavailable', `Discord could not be reached while trying to ${action}.`, 'unavailable', true, null, null, {
    cause: error,
  });
}

function fromApiError(error: DiscordAPIError, action: string, permission: string | undefined): DiscordTransportError {
  const code = typeof error.code === 'number' ? error.code : null;
  const make = (brainstormCode: BrainstormErrorCode, text: string, failure: DiscordFailure, retryable: boolean): DiscordTransportError =>
    new DiscordTransportError(brainstormCode, text, failure, retryable, code, error.status, { cause: error });
  switch (code) {
    case RESTJSONErrorCodes.MissingPermissions:
      return make(
        'forbidden',
        permission
          ? `The bot needs the Discord permission "${permission}" to ${action}; ask a server admin to grant it.`
          : `The bot lacks a Discord permission needed to ${action}.`,
        'missing_permissions',
        false,
      );
    case RESTJSONErrorCodes.MissingAccess:
      return make('forbidden', `The bot cannot see the channel needed to ${action}.`, 'missing_access', false);
    case RESTJSONErrorCodes.UnknownChannel:
      return make('not_found', `The Discord channel or thread is gone, so we could not ${action}.`, 'unknown_channel', false);
    case RESTJSONErrorCodes.UnknownMessage:
      return make('not_found', `The Discord message is gone, so we could not ${action}.`, 'unknown_message', false);
    case RESTJSONErrorCodes.UnknownWebhook:
      return make('not_found', `The Discord webhook is gone, so we could not ${action}.`, 'unknown_webhook', true);
    case RESTJSONErrorCodes.CannotEditMessageAuthoredByAnotherUser:
      return make('not_found', `That Discord message was posted by someone else, so we could not ${action}.`, 'not_editable', false);
    case RESTJSONErrorCodes.InvalidActionOnArchivedThread:
    case RESTJSONErrorCodes.ThreadLocked:
      return make('forbidden', `The Discord thread is locked or archived, so we could not ${action}.`, 'thread_closed', false);
    case RESTJSONErrorCodes.InvalidFormBodyOrContentType:
    case RESTJSONErrorCodes.CannotSendAnEmptyMessage:
      return make('bad_input', `Discord refused the message while we tried to ${action}: ${error.message}`, 'invalid_form_body', false);
    default:
      if (error.status >= 500) return make('service_unavailable', `Discord failed (${error.status}) while we tried to ${action}.`, 'unavailable', true);
      return make('internal', `Discord refused to ${action}: ${error.message}`, 'unknown', false);
  }
}
