/** Plain text checks shared by the guardrails: mentions, attempts to extract instructions, incivility. */
import { speakerLabelSource } from '../../core/speaker-label.ts';

/** Mentions that would ping people in Discord: @everyone, @here, users, roles. */
export type MentionKind = 'everyone' | 'here' | 'user' | 'role';

const MENTION_PATTERNS: readonly { kind: MentionKind; pattern: RegExp }[] = [
  { kind: 'everyone', pattern: /@everyone\b/i },
  { kind: 'here', pattern: /@here\b/i },
  { kind: 'user', pattern: /<@!?\d+>/ },
  { kind: 'role', pattern: /<@&\d+>/ },
];

/** The kinds of ping-capable mentions in a text. */
export function findMentions(text: string): MentionKind[] {
  return MENTION_PATTERNS.filter(({ pattern }) => pattern.test(text)).map(({ kind }) => kind);
}

/** True when the text asks for, or contains, a ping to everyone in the room or server. */
export function asksToPingEveryone(text: string): boolean {
  if (/@(?:everyone|here)\b/i.test(text)) return true;
  if (/<@&\d+>/.test(text)) return true;
  return /\b(?:ping|tag|notify|alert|wake up)\s+(?:absolutely\s+)?(?:everyone|everybody|all\s+(?:the\s+)?(?:users|members|people)|the\s+whole\s+(?:server|channel|guild))\b/i.test(
    text,
  );
}

const EXTRACTION_PATTERNS: readonly RegExp[] = [
  /\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:(?:of\s+)?(?:your|the)\s+)?(?:previous|prior|above|earlier|system)\s+(?:instructions|prompts?|rules|messages)\b/i,
  /\b(?:reveal|show|print|tell|give|share|leak|dump|output|display|repeat|paste|send|recite|list)\b[^.?!\n]{0,40}\b(?:your|the\s+bots?'?s?|the\s+models?'?s?|its|their)\s+(?:own\s+|full\s+|hidden\s+|original\s+|initial\s+|exact\s+)*(?:system\s+)?(?:prompts?|instructions|api[\s_-]?keys?|keys|tokens?|secrets?|credentials|env(?:ironment)?(?:\s+variables|\s+vars)?|\.env)\b/i,
  /\bwhat\s+(?:is|are|were)\s+(?:your|the\s+bots?'?s?)\s+(?:system\s+)?(?:prompts?|instructions|api[\s_-]?keys?|tokens?|secrets?|credentials)\b/i,
  /\b(?:OPENROUTER|OPENAI|ANTHROPIC|GROK|CURSOR|NOTION)_API_KEY\b|\bDISCORD_BOT_TOKEN\b|\bWEB_TOKEN\b/,
];

/** True when the text tries to make the bots reveal their instructions, keys or environment. */
export function asksToRevealInstructions(text: string): boolean {
  return EXTRACTION_PATTERNS.some((pattern) => pattern.test(text));
}

const UNCIVIL_PATTERNS: readonly RegExp[] = [
  /\b(?:stupid|idiot(?:ic|s)?|dumb|moron(?:ic|s)?|pathetic|useless|incompetent|ridiculous|worthless|lazy)\b/i,
  /\bshut\s+up\b/i,
  /\b(?:nonsense|garbage|rubbish|drivel)\b/i,
  /\b(?:damn|hell|crap|wtf|stfu)\b/i,
  /\bstop\s+(?:wasting|rambling|babbling)\b/i,
];

/** True when the text is not civil enough for a moderator's redirect. */
export function isUncivil(text: string): boolean {
  return UNCIVIL_PATTERNS.some((pattern) => pattern.test(text));
}

/**
 * The other speaker a text pretends to be, when a line starts with a speaker label such as
 * `Claude: ...`, `[Claude]: ...` or `**Claude:**` for a name other than the author's own.
 */
export function findImpersonatedSpeaker(text: string, authorName: string, speakerNames: readonly string[]): string | null {
  const others = speakerNames.filter((name) => name.trim() !== '' && name.toLowerCase() !== authorName.toLowerCase());
  for (const name of others) {
    // Markers and spaces within one line: `\s*` ran on over the following lines from every line start (quadratic in a run of blank lines).
    const label = new RegExp(String.raw`^[^\S\n\r\u2028\u2029]*(?:[>*_\-][^\S\n\r\u2028\u2029]*)*${speakerLabelSource(name)}\s`, 'im');
    if (label.test(`${text}\n`)) return name;
  }
  return null;
}
