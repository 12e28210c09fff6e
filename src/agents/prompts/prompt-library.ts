import { BrainstormError } from '../../core/errors.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The default prompts folder: `prompts/` at the top of the repository. */
export const DEFAULT_PROMPTS_DIRECTORY = fileURLToPath(new URL('../../../prompts/', import.meta.url));

const SLOT = /\{([a-zA-Z][a-zA-Z0-9_]*)\}/g;

/** A prompt template: its text and the variables its `{slots}` name. */
export interface PromptTemplate {
  name: string;
  text: string;
  variables: ReadonlySet<string>;
}

/** Raised when a prompt is missing or rendered without one of its variables. */
export class PromptError extends BrainstormError<'prompt_invalid'> {
  constructor(message: string) {
    super('prompt_invalid', message);
    this.name = 'PromptError';
  }
}

/** Reads every `*.txt` in a folder once; renders `{variable}` slots, refusing to leave one blank. */
export class PromptLibrary {
  private readonly templates: Map<string, PromptTemplate>;

  constructor(directory: string = DEFAULT_PROMPTS_DIRECTORY) {
    this.templates = new Map(
      readdirSync(directory)
        .filter((file) => file.endsWith('.txt'))
        .map((file) => {
          const name = file.slice(0, -'.txt'.length);
          const text = readFileSync(join(directory, file), 'utf8');
          return [name, { name, text, variables: new Set([...text.matchAll(SLOT)].map((match) => match[1] ?? '')) }];
        }),
    );
  }

  /** Fails at start-up when a prompt the code needs is absent, or declares a variable the code will not give. */
  require(name: string, providedVariables: readonly string[]): PromptTemplate {
    const template = this.templates.get(name);
    if (!template) throw new PromptError(`prompt "${name}" not found (expected prompts/${name}.txt)`);
    const unknown = [...template.variables].filter((variable) => !providedVariables.includes(variable));
    if (unknown.length > 0) throw new PromptError(`prompt "${name}" uses {${unknown.join('}, {')}} which the code does not provide`);
    return template;
  }

  /** Fills a template's slots; a missing or undefined variable is an error, never a blank. */
  render(name: string, variables: Record<string, string | number>): string {
    const template = this.require(name, Object.keys(variables));
    return template.text.replace(SLOT, (_match, variable: string) => {
      const value = variables[variable];
      if (value === undefined) throw new PromptError(`prompt "${name}" needs {${variable}}`);
      return String(value);
    });
  }

  /** The names of every loaded prompt. */
  names(): string[] {
    return [...this.templates.keys()];
  }
}
