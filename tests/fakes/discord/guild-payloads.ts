/** READY and GUILD_CREATE payloads built from the fake's state. */
import type { FakeDiscordState } from './fake-state.ts';
import { channelPayload, memberPayload, rolePayload, userPayload } from './payloads.ts';

/** The READY dispatch for a new session. */
export function readyPayload(state: FakeDiscordState, botUserId: string, sessionId: string, resumeUrl: string): Record<string, unknown> {
  return {
    v: 10,
    user: { ...userPayload(state.requireUser(botUserId)), verified: true, mfa_enabled: false, flags: 0 },
    guilds: [{ id: state.guildId, unavailable: true }],
    session_id: sessionId,
    session_type: 'normal',
    resume_gateway_url: resumeUrl,
    shard: [0, 1],
    application: { id: state.applicationId, flags: 0 },
    user_settings: {},
    relationships: [],
    private_channels: [],
    presences: [],
    guild_join_requests: [],
    geo_ordered_rtc_regions: [],
  };
}

/** The GUILD_CREATE dispatch: the whole guild with roles, members, text channels and active threads. */
export function guildCreatePayload(state: FakeDiscordState): Record<string, unknown> {
  const channels = [...state.channels.values()];
  return {
    id: state.guildId,
    name: state.guildName,
    icon: null,
    splash: null,
    discovery_splash: null,
    banner: null,
    description: null,
    owner_id: state.ownerId,
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: 0,
    default_message_notifications: 1,
    explicit_content_filter: 0,
    mfa_level: 0,
    nsfw_level: 0,
    premium_tier: 0,
    premium_progress_bar_enabled: false,
    preferred_locale: 'en-US',
    system_channel_id: null,
    system_channel_flags: 0,
    rules_channel_id: null,
    public_updates_channel_id: null,
    safety_alerts_channel_id: null,
    vanity_url_code: null,
    application_id: null,
    features: [],
    emojis: [],
    stickers: [],
    roles: [...state.roles.values()].map(rolePayload),
    joined_at: new Date().toISOString(),
    large: false,
    unavailable: false,
    member_count: state.members.size,
    members: [...state.members.values()].map((member) => memberPayload(member, state.requireUser(member.userId))),
    channels: channels.filter((channel) => channel.kind === 'text').map((channel) => channelPayload(channel, state.guildId)),
    threads: channels.filter((channel) => channel.kind === 'thread').map((channel) => channelPayload(channel, state.guildId)),
    presences: [],
    voice_states: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}
