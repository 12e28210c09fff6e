import type { z } from 'zod';
import { clipText } from '../core/text-clip.ts';

/** One problem zod found with a setting's value. */
type ValueIssue = z.core.$ZodIssue;

const EXPECTED_WORDS: Record<string, string> = { number: 'a number', int: 'a whole number', string: 'text', boolean: 'true or false' };

/**
 * A setting's problem in plain words ("must be a whole number"), for the start-up error and `!config` alike; zod's own
 * ("Invalid input: expected int, received number") reads as a stack trace to the person who typed the value.
 */
export function describeValueIssue(issue: ValueIssue | undefined): string {
  if (!issue) return 'is not a valid value';
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${EXPECTED_WORDS[issue.expected] ?? issue.expected}`;
    case 'too_small':
      return `must be ${issue.inclusive ? 'at least' : 'more than'} ${String(issue.minimum)}`;
    case 'too_big':
      return `must be ${issue.inclusive ? 'at most' : 'less than'} ${String(issue.maximum)}`;
    case 'invalid_format':
      return `must be ${issue.format === 'url' ? 'a URL' : `in ${issue.format} format`}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    default:
      return issue.message;
  }
}

/** A value as quoted back in an error: cut to a readable length. */
export function quotedValue(value: string): string {
  return `"${value.length > 40 ? `${clipText(value, 40)}…` : value}"`;
}
