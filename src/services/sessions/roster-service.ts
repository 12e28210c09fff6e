import type { ParticipantConfig } from '../../config/roster.ts';
import type { SettingsRepository } from '../../repositories/settings-repository.ts';
import type { Clock } from '../clock.ts';
import type { Session } from '../domain.ts';
import { BrainstormError } from '../errors.ts';

const DISABLED_KEY = 'participants.disabled';

/** Which participants may speak: the roster, minus those an admin disabled, minus benched (breaker open) models. */
export class RosterService {
  private disabled = new Set<string>();

  constructor(
    private readonly roster: ParticipantConfig[],
    private readonly settings: SettingsRepository,
    private readonly clock: Clock,
    private readonly isAvailable: (participantId: string) => boolean,
  ) {}

  /** Loads the admins' disabled list. */
  async load(): Promise<void> {
    const stored = (await this.settings.all())[DISABLED_KEY];
    this.disabled = new Set(Array.isArray(stored) ? stored.filter((value): value is string => typeof value === 'string') : []);
  }

  /** Every configured participant. */
  all(): ParticipantConfig[] {
    return this.roster;
  }

  /** Participants that may speak in `session` now. */
  active(session: Pick<Session, 'disabledParticipants'>): ParticipantConfig[] {
    return this.roster.filter(
      (participant) => participant.enabled && !this.disabled.has(participant.id) && !session.disabledParticipants.includes(participant.id) && this.isAvailable(participant.id),
    );
  }

  /** Finds a participant by id or name (case-insensitive). */
  find(idOrName: string): ParticipantConfig {
    const wanted = idOrName.trim().toLowerCase();
    const participant = this.roster.find((entry) => entry.id === wanted || entry.name.toLowerCase() === wanted);
    if (!participant) throw new BrainstormError('bad_input', `No participant called "${idOrName}". Known: ${this.roster.map((entry) => entry.name).join(', ')}.`);
    return participant;
  }

  /** Admin `!enable` / `!disable`, persisted. */
  async setEnabled(idOrName: string, enabled: boolean, by: string): Promise<ParticipantConfig> {
    const participant = this.find(idOrName);
    if (enabled) this.disabled.delete(participant.id);
    else this.disabled.add(participant.id);
    await this.settings.set(DISABLED_KEY, [...this.disabled], by, this.clock.now());
    return participant;
  }

  /** True when an admin disabled the participant. */
  isDisabled(id: string): boolean {
    return this.disabled.has(id);
  }
}
