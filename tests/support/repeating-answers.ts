/** What the repeat tests' models say: one stuck answer, and fresh ones that never look like a repeat. */

/** The answer a stuck participant says again and again. */
export const LOOP = 'We should start with the payment path, because it carries the most risk and had the most incidents.';

/** Answers that share no run of three words with one another. */
export const FRESH = [
  'a canary release for the billing service, watched by the on-call engineer',
  'retire the oldest toggles first, since nobody remembers who owns them',
  'write down an expiry date next to every new flag in the tracker',
  'let support staff see which customers have which features switched on',
  'measure the checkout error rate before and after each rollout step',
  'pair each experiment with one dashboard and one person who reads it',
  'keep the kill switch outside the deploy pipeline so it works during incidents',
  'ask the mobile team whether their release cadence fits this plan at all',
];
