/** READY and GUILD_CREATE payloads built from the fake's state. */
import type { FakeDiscordState } from './fake-state.ts';
import { channelPayload, memberPayload, rolePayload, userPayload } from './payloads.ts';

/** The READY dispatch for a new session on `shard` ([index, count]): the guilds of that shard, unavailable until their GUILD_CREATE. */
export function readyPayload(
  state: FakeDiscordState,
  session: { botUserId: string; sessionId: string; resumeUrl: string; shard: [number, number]; guildIds: string[] },
): Record<string, unknown> {
  return {
    v: 10,
    user: { ...userPayload(state.requireUser(session.botUserId)), verified: true, mfa_enabled: false, flags: 0 },
    guilds: session.guildIds.map((id) => ({ id, unavailable: true })),
    session_id: session.sessionId,
    session_type: 'normal',
    resume_gateway_url: session.resumeUrl,
    shard: session.shard,
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
export function guildCreatePayload(state: FakeDiscordState, guildId: string = state.guildId): Record<string, unknown> {
  const channels = [...state.channels.values()].filter((channel) => channel.guildId === guildId);
  const roles = [...state.roles.values()].filter((role) => role.id === guildId || (guildId === state.guildId && !state.guilds.has(role.id)));
  return {
    id: guildId,
    name: state.guilds.get(guildId)?.name ?? state.guildName,
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
    roles: roles.map(rolePayload),
    joined_at: new Date().toISOString(),
    large: false,
    unavailable: false,
    member_count: state.members.size,
    members: [...state.members.values()].map((member) => memberPayload(member, state.requireUser(member.userId))),
    channels: channels.filter((channel) => channel.kind !== 'thread').map((channel) => channelPayload(channel)),
    // Only active threads: Discord does not sync archived ones up front.
    threads: channels.filter((channel) => channel.kind === 'thread' && channel.archived !== true).map((channel) => channelPayload(channel)),
    presences: [],
    voice_states: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}
