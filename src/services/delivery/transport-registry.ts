import type { Transport } from '../../core/ports.ts';
import { BrainstormError } from '../../core/errors.ts';

/** The transports this process serves, by name ('discord', 'local', 'memory'). */
export class TransportRegistry {
  private readonly transports = new Map<string, Transport>();

  constructor(transports: Transport[] = []) {
    for (const transport of transports) this.add(transport);
  }

  /** Adds a transport (the composition root adds them as they start). */
  add(transport: Transport): void {
    this.transports.set(transport.name, transport);
  }

  /** The transport named `name`; throws when it is not running in this process. */
  get(name: string): Transport {
    const transport = this.transports.get(name);
    if (!transport) throw new BrainstormError('service_unavailable', `The ${name} transport is not running.`);
    return transport;
  }

  /** True when `name` is served here. */
  has(name: string): boolean {
    return this.transports.has(name);
  }
}
