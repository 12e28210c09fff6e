import type { ParticipantConfig } from '../../config/roster.ts';
import type { Session } from '../../core/domain.ts';
import { BrainstormError } from '../../core/errors.ts';

/** Where admins' `!enable`/`!disable` switches live (the settings service). */
export interface ParticipantSwitches {
  disabledParticipants(): string[];
  setParticipantEnabled(participantId: string, enabled: boolean, actor: { id: string; name: string }): Promise<unknown>;
}

/** Which participants may speak: the roster, minus those an admin disabled, minus benched (breaker open) models. */
export class RosterService {
  constructor(
    private readonly roster: ParticipantConfig[],
    private readonly switches: ParticipantSwitches,
    private readonly isAvailable: (participantId: string) => boolean,
  ) {}

  /** Every configured participant. */
  all(): ParticipantConfig[] {
    return this.roster;
  }

  /** Participants that may speak in `session` now. */
  active(session: Pick<Session, 'disabledParticipants'>): ParticipantConfig[] {
    const disabled = new Set(this.switches.disabledParticipants());
    return this.roster.filter(
      (participant) =>
        participant.enabled && !disabled.has(participant.id) && !session.disabledParticipants.includes(participant.id) && this.isAvailable(participant.id),
    );
  }

  /** Finds a participant by id or name (case-insensitive). */
  find(idOrName: string): ParticipantConfig {
    const wanted = idOrName.trim().toLowerCase();
    if (wanted === '') throw new BrainstormError('bad_input', `Say which participant: ${this.roster.map((entry) => entry.name).join(', ')}.`);
    const participant = this.roster.find((entry) => entry.id === wanted || entry.name.toLowerCase() === wanted);
    if (!participant)
      throw new BrainstormError('bad_input', `No participant called "${idOrName}". Known: ${this.roster.map((entry) => entry.name).join(', ')}.`);
    return participant;
  }

  /** Admin `!enable` / `!disable`, persisted by the settings service. */
  async setEnabled(idOrName: string, enabled: boolean, actor: { id: string; name: string }): Promise<ParticipantConfig> {
    const participant = this.find(idOrName);
    await this.switches.setParticipantEnabled(participant.id, enabled, actor);
    return participant;
  }
}
