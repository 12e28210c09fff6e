/** Roles against sycophancy: each participant gets a role for the session, rotating every few rounds. */

/** A role a participant plays for a while. */
export interface SessionRole {
  name: 'proposer' | 'skeptic' | 'pragmatist';
  duty: string;
}

/** The roles, in rotation order. */
export const SESSION_ROLES: readonly SessionRole[] = [
  { name: 'proposer', duty: 'put forward new ideas and alternatives nobody has raised yet' },
  {
    name: 'skeptic',
    duty: 'challenge the strongest idea on the table: look for failure modes, hidden costs and counter-examples, and say so plainly when you disagree',
  },
  { name: 'pragmatist', duty: 'test ideas against cost, effort and feasibility, and turn them into concrete next steps' },
];

/**
 * The discussion round a session is in: about one message per participant is one round (message counts are
 * what the session stores, so the role map needs no extra state and survives a restart).
 */
export function roundOf(messageCount: number, participants: number): number {
  return Math.floor(Math.max(0, messageCount) / Math.max(1, participants));
}

/** The role of each participant (by roster order) in a round; roles move one seat every `rotateEvery` rounds. */
export function roleMap(
  participantNames: readonly string[],
  round: number,
  rotateEvery: number,
  rotation: readonly SessionRole[] = SESSION_ROLES,
): Map<string, SessionRole> {
  const shift = rotateEvery > 0 ? Math.floor(round / rotateEvery) : 0;
  const roles = new Map<string, SessionRole>();
  if (rotation.length === 0) return roles;
  participantNames.forEach((name, seat) => {
    const role = rotation[(seat + shift) % rotation.length];
    if (role) roles.set(name, role);
  });
  return roles;
}

/** The rounds left before the roles rotate again. */
export function roundsUntilRotation(round: number, rotateEvery: number): number {
  return rotateEvery > 0 ? rotateEvery - (round % rotateEvery) : 0;
}

/** One line naming everyone's role (for `!ideas` and the console). */
export function describeRoles(roles: ReadonlyMap<string, SessionRole>): string {
  return `Roles now: ${[...roles.entries()].map(([name, role]) => `${name} ${role.name}`).join(', ')}.`;
}

/** The roles a preset rotates (by name, in its order), or every role when it names none. */
export function rotationOf(names: readonly SessionRole['name'][] | null | undefined): SessionRole[] {
  if (!names) return [...SESSION_ROLES];
  return names.map((name) => SESSION_ROLES.find((role) => role.name === name)).filter((role): role is SessionRole => role !== undefined);
}
