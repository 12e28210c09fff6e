/** The web console: its server and the local channel transport. */
export {
  createConsoleApp,
  createWebServer,
  DEFAULT_WEB_PORT,
  DEMO_MODE_NOTICE,
  type WebServer,
  type ConsoleAppOptions,
  type WebServerOptions,
} from './web-server.ts';
export { LocalTransport, type LocalChannelEvent, type LocalDelivery, type LocalPreview, type LocalRoom } from './local-transport.ts';
export { WebServerError, type WebServerErrorCode } from './web-errors.ts';
