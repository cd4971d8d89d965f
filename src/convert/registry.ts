import { A2AClientError } from '../errors/a2a-client-error.js';
import type { AgentCard } from '../protocol/model.js';
import type { EventConverter } from './converter.js';
import { defaultConverter } from './default-converter.js';

/** How a converter is registered. */
export interface RegisterOptions {
  /** Selects this converter automatically for agents whose card matches. */
  match?: (card: AgentCard) => boolean;
}

interface Entry {
  converter: EventConverter;
  match: ((card: AgentCard) => boolean) | undefined;
}

/**
 * Named converters. `'default'` ({@link defaultConverter}) is preregistered. Registering a name again
 * replaces the earlier entry in place.
 */
export class ConverterRegistry {
  readonly #entries: Entry[] = [{ converter: defaultConverter, match: undefined }];

  /** Adds (or replaces, by name) a converter; returns the registry for chaining. Never throws. */
  register(converter: EventConverter, options: RegisterOptions = {}): this {
    const entry: Entry = { converter, match: options.match };
    const index = this.#entries.findIndex((e) => e.converter.name === converter.name);
    if (index >= 0) this.#entries[index] = entry;
    else this.#entries.push(entry);
    return this;
  }

  /** The converter registered under `name`, or undefined. */
  get(name: string): EventConverter | undefined {
    return this.#entries.find((e) => e.converter.name === name)?.converter;
  }

  /** Names in registration order. */
  names(): string[] {
    return this.#entries.map((e) => e.converter.name);
  }

  /**
   * The first registered converter whose `match(card)` is true, else `'default'`. A `match` that
   * throws counts as false.
   */
  select(card: AgentCard): EventConverter {
    for (const entry of this.#entries) {
      if (entry.match === undefined) continue;
      let matched = false;
      try {
        matched = entry.match(card);
      } catch {
        matched = false; // a broken matcher must not break the client; it simply does not match
      }
      if (matched) return entry.converter;
    }
    return this.get('default') ?? defaultConverter;
  }

  /**
   * Resolves a `converter` option: an instance is used as is; a name is looked up; nothing →
   * {@link select}. Throws an `A2AClientError` of kind `unsupported` (field `converter`) for an
   * unknown name.
   */
  resolve(choice: string | EventConverter | undefined, card: AgentCard): EventConverter {
    if (choice === undefined) return this.select(card);
    if (typeof choice !== 'string') return choice;
    const found = this.get(choice);
    if (found) return found;
    throw new A2AClientError({
      kind: 'unsupported',
      message: `no converter named "${choice}" is registered (known: ${this.names().join(', ')})`,
      field: 'converter',
      agent: card.name,
    });
  }
}

/**
 * The converter the client options pick for `card`: `options.converter` (instance or name, looked up
 * in `options.converters` or a fresh registry), else the first matching converter of
 * `options.converters`, else {@link defaultConverter}. Throws an `A2AClientError` of kind
 * `unsupported` for an unknown name.
 */
export function resolveConverter(
  card: AgentCard,
  options: { converter?: string | EventConverter; converters?: ConverterRegistry },
): EventConverter {
  return (options.converters ?? new ConverterRegistry()).resolve(options.converter, card);
}
