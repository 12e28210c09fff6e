/**
 * Which idea a simulated participant takes up: what the last speaker said, as a room does, until the room has named it
 * often; then one of the topic's phrases it has named least, so a demo discussion moves through the topic's areas
 * instead of circling the first phrase someone picked.
 */

/** Times an idea may be named in the room before the answers move on to another of the topic's phrases. */
export const WORN_AFTER = 3;

/** What the choice reads. */
export interface IdeaChoice {
  /** Ideas in what the previous speaker said (none when it was the Moderator or said nothing to pick up). */
  heard: string[];
  /** The topic's own phrases. */
  fromTopic: string[];
  /** Everything said in the room so far, as the participant reads it. */
  conversation: string;
  /** A stable number that varies the choice between speakers and turns. */
  seed: number;
}

/** Phrases of two words or more (or joined by hyphens: "follow-the-sun") when there are any: "rotation designs" says more than "burning". */
function phrasesFirst(ideas: string[]): string[] {
  const phrases = ideas.filter((idea) => /[\s-]/.test(idea));
  return phrases.length > 0 ? phrases : ideas;
}

/** The idea a simulated line names, in quotes (`try "pager alerts" with…`), or undefined. */
export function ideaNamedIn(text: string): string | undefined {
  return /"([^"]+)"/.exec(text)?.[1];
}

/** How many times `idea` was named in `conversation`, in quotes, as the simulated lines name their ideas. */
export function timesNamed(idea: string, conversation: string): number {
  return conversation.toLowerCase().split(`"${idea.toLowerCase()}"`).length - 1;
}

/** The idea to take up, or undefined when neither the speaker nor the topic offers one. */
export function chooseIdea(choice: IdeaChoice): string | undefined {
  const named = (idea: string) => timesNamed(idea, choice.conversation);
  const unworn = (ideas: string[]) => ideas.filter((idea) => named(idea) < WORN_AFTER);
  const offered = choice.heard.length > 0 ? choice.heard : choice.fromTopic;
  const topic = phrasesFirst(choice.fromTopic.length > 0 ? choice.fromTopic : offered);
  const fewest = Math.min(...topic.map(named));
  // The speaker's phrases, else the speaker's single words (a person's "handover" is theirs to hear), else the topic's
  // least named.
  const pools = [unworn(phrasesFirst(offered)), unworn(offered), topic.filter((idea) => named(idea) === fewest)];
  const pool = pools.find((ideas) => ideas.length > 0) ?? [];
  return pool.length > 0 ? pool[choice.seed % pool.length] : undefined;
}
