/** Discord's REST error shape `{ code, message, errors? }` with the HTTP status Discord uses for it. */

/** A nested field error tree as Discord returns it under `errors`. */
export interface FieldErrors {
  [field: string]: FieldErrors | { code: string; message: string }[];
}

/** An error the fake answers with; the router turns it into the JSON body and status. */
export class DiscordHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: FieldErrors,
  ) {
    super(message);
    this.name = 'DiscordHttpError';
  }

  /** The response body exactly as Discord sends it. */
  body(): { code: number; message: string; errors?: FieldErrors } {
    return this.errors ? { code: this.code, message: this.message, errors: this.errors } : { code: this.code, message: this.message };
  }
}

/** 401 without a valid token. */
export const unauthorized = (): DiscordHttpError => new DiscordHttpError(401, 0, '401: Unauthorized');
/** 10003 Unknown Channel. */
export const unknownChannel = (): DiscordHttpError => new DiscordHttpError(404, 10003, 'Unknown Channel');
/** 10008 Unknown Message. */
export const unknownMessage = (): DiscordHttpError => new DiscordHttpError(404, 10008, 'Unknown Message');
/** 10015 Unknown Webhook. */
export const unknownWebhook = (): DiscordHttpError => new DiscordHttpError(404, 10015, 'Unknown Webhook');
/** 10007 Unknown Member. */
export const unknownMember = (): DiscordHttpError => new DiscordHttpError(404, 10007, 'Unknown Member');
/** 10062 Unknown interaction (answered too late or never existed). */
export const unknownInteraction = (): DiscordHttpError => new DiscordHttpError(404, 10062, 'Unknown interaction');
/** 40060 Interaction has already been acknowledged. */
export const alreadyAcknowledged = (): DiscordHttpError => new DiscordHttpError(400, 40060, 'Interaction has already been acknowledged.');
/** 50001 Missing Access (the bot cannot see the resource). */
export const missingAccess = (): DiscordHttpError => new DiscordHttpError(403, 50001, 'Missing Access');
/** 50013 Missing Permissions. */
export const missingPermissions = (): DiscordHttpError => new DiscordHttpError(403, 50013, 'Missing Permissions');
/** 50006 Cannot send an empty message (Discord's real code for it). */
export const emptyMessage = (): DiscordHttpError => new DiscordHttpError(400, 50006, 'Cannot send an empty message');
/** 50027 Invalid Webhook Token. */
export const invalidWebhookToken = (): DiscordHttpError => new DiscordHttpError(401, 50027, 'Invalid Webhook Token');
/** 404 for a route the fake does not serve, shaped like Discord's. */
export const notFound = (): DiscordHttpError => new DiscordHttpError(404, 0, '404: Not Found');
/** 160004 A thread has already been created for this message. */
export const threadAlreadyCreated = (): DiscordHttpError => new DiscordHttpError(400, 160004, 'A thread has already been created for this message');

/** 50035 Invalid Form Body with one field error per entry (dotted paths such as `embeds.0.description`). */
export function invalidFormBody(fieldErrors: { path: string; code: string; message: string }[]): DiscordHttpError {
  const errors: FieldErrors = {};
  for (const fieldError of fieldErrors) {
    let node: FieldErrors = errors;
    for (const segment of fieldError.path.split('.')) {
      const child = node[segment];
      if (child === undefined || Array.isArray(child)) node[segment] = {};
      node = node[segment] as FieldErrors;
    }
    node['_errors'] = [{ code: fieldError.code, message: fieldError.message }];
  }
  return new DiscordHttpError(400, 50035, 'Invalid Form Body', errors);
}
