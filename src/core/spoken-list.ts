/** Words as a person says a list of them: "Claude", "Claude and Grok", "Claude, ChatGPT and Grok" (or "… or …"). */
export function spokenList(words: readonly string[], conjunction: 'and' | 'or'): string {
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} ${conjunction} ${words.at(-1)}` : (words[0] ?? '');
}
