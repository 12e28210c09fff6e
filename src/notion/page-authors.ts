/**
 * Who last edited a page: tells a person's edits in Notion from this integration's own writes. Notion names the last
 * editor of every page (`last_edited_by`), content edits included; the integration's own user is `users/me`.
 */
import { isVanished, type NotionRequester } from './notion-requester.ts';

/** The integration's user, looked up once, and the last editor of pages. */
export class PageAuthors {
  private ownUserId: string | null = null;

  constructor(private readonly requester: NotionRequester) {}

  /** Whether someone other than this integration edited the page last; false when the page is gone. */
  async editedByOthers(pageId: string, signal?: AbortSignal): Promise<boolean> {
    try {
      const page = await this.requester.call(() => this.requester.client.pages.retrieve({ page_id: pageId }), signal);
      if (!('last_edited_by' in page) || page.in_trash) return false;
      return page.last_edited_by.id !== (await this.integrationUserId(signal));
    } catch (error) {
      if (isVanished(error)) return false;
      throw error;
    }
  }

  private async integrationUserId(signal?: AbortSignal): Promise<string> {
    this.ownUserId ??= (await this.requester.call(() => this.requester.client.users.me({}), signal)).id;
    return this.ownUserId;
  }
}
