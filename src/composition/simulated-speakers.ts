import type { AppConfig } from '../config/app-config.ts';
import type { Speaker } from '../core/domain.ts';

/** Whether the model behind a speaker is the demo simulator (its messages say so). */
export function isSimulatedSpeaker(models: AppConfig['models'], speaker: Speaker): boolean {
  if (speaker.kind === 'participant')
    return models.roster.find((entry) => entry.id === speaker.id || entry.name === speaker.name)?.simulated ?? models.demoMode;
  if (speaker.kind === 'planner' || speaker.kind === 'moderator' || speaker.kind === 'scribe' || speaker.kind === 'tldr')
    return models.roles[speaker.kind].simulated;
  return false;
}
