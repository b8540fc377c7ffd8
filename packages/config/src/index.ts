/**
 * Configuration is read once from the environment and validated; bad values stop start-up with one error
 * that names every variable at fault, so an operator fixes them all in one pass rather than one per restart.
 * Every variable is declared with its default and description, so the same declarations produce the
 * documentation (see `describeVariables`).
 */
export class ConfigError extends Error {
  /** Each problem found, one sentence naming its variable. */
  readonly problems: string[];

  constructor(problems: string | string[]) {
    const list = typeof problems === 'string' ? [problems] : problems;
    super(list.length === 1 ? list[0] : `${list.length} configuration errors:\n${list.map((problem) => `- ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = list;
  }
}

/**
 * A rule across the variables read (production requirements, one variable bounded by another): the
 * problem as a sentence naming the variable, or nothing when the rule holds. A rule may also throw.
 */
export type ConfigRule<C> = (config: C) => string | false | null | undefined | void;

type Kind = 'string' | 'int' | 'bool' | 'url' | 'list';
interface VarSpec<K extends Kind = Kind> {
  kind: K;
  description: string;
  default?: string;
  min?: number;
  max?: number;
  protocols?: string[];
  /** A url variable that takes several addresses separated by commas (a cluster's nodes). */
  many?: boolean;
}
type ValueOf<K extends Kind> = K extends 'int' ? number : K extends 'bool' ? boolean : K extends 'list' ? string[] : string;
type Specs = Record<string, VarSpec>;
export type ConfigOf<S extends Specs> = {
  [N in keyof S]: S[N] extends { default: string } ? ValueOf<S[N]['kind']> : ValueOf<S[N]['kind']> | undefined;
};

export const variable = {
  string: <D extends string | undefined = undefined>(description: string, def?: D) =>
    ({ kind: 'string', description, default: def }) as VarSpec<'string'> & (D extends string ? { default: string } : unknown),
  int: (description: string, def: number, min = 0, max = Number.MAX_SAFE_INTEGER): VarSpec<'int'> & { default: string } => ({
    kind: 'int',
    description,
    default: String(def),
    min,
    max,
  }),
  bool: (description: string, def: boolean): VarSpec<'bool'> & { default: string } => ({ kind: 'bool', description, default: String(def) }),
  url: <D extends string | undefined = undefined>(description: string, protocols: string[], def?: D) =>
    ({ kind: 'url', description, default: def, protocols }) as VarSpec<'url'> & (D extends string ? { default: string } : unknown),
  list: (description: string, def = ''): VarSpec<'list'> & { default: string } => ({ kind: 'list', description, default: def }),
  /** One URL, or several separated by commas; each is checked, the value stays the string as given. */
  urls: (description: string, protocols: string[]) => ({ kind: 'url', description, protocols, many: true }) as VarSpec<'url'>,
};

function parseValue(name: string, spec: VarSpec, raw: string): unknown {
  switch (spec.kind) {
    case 'int': {
      if (!/^-?\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
      const value = Number(raw);
      if (value < (spec.min ?? 0) || value > (spec.max ?? Number.MAX_SAFE_INTEGER)) {
        throw new ConfigError(`${name} must be between ${spec.min} and ${spec.max}, got ${value}`);
      }
      return value;
    }
    case 'bool':
      if (!/^(true|false|1|0)$/i.test(raw)) throw new ConfigError(`${name} must be true or false, got "${raw}"`);
      return /^(true|1)$/i.test(raw);
    case 'url': {
      for (const one of spec.many ? raw.split(',').map((part) => part.trim()) : [raw]) {
        let url: URL;
        try {
          url = new URL(one);
        } catch {
          throw new ConfigError(`${name} must be ${spec.many ? 'URLs separated by commas' : 'a URL'}, got "${raw}"`);
        }
        const protocol = url.protocol.replace(/:$/, '');
        if (spec.protocols && !spec.protocols.includes(protocol)) {
          throw new ConfigError(`${name} must use ${spec.protocols.join(' or ')}, got "${protocol}"`);
        }
      }
      return raw;
    }
    case 'list':
      return raw
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
    default:
      return raw;
  }
}

/** The messages of what `attempt` throws: a ConfigError's problems, or any other error's message. */
function problemsOf(attempt: () => unknown): string[] {
  try {
    const problem = attempt();
    return typeof problem === 'string' ? [problem] : [];
  } catch (error) {
    return error instanceof ConfigError ? error.problems : [(error as Error).message];
  }
}

/**
 * Reads every variable of `specs` from `env`, then checks `rules` on the result; throws one ConfigError
 * listing every problem found. A variable whose value is refused is read as its default while the rules run,
 * so their problems are reported too.
 */
export function readConfig<S extends Specs>(
  specs: S,
  env: NodeJS.ProcessEnv = process.env,
  rules: ConfigRule<ConfigOf<S>>[] = [],
): ConfigOf<S> {
  const config: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, spec] of Object.entries(specs)) {
    const raw = env[name] === undefined || env[name] === '' ? spec.default : env[name];
    config[name] = undefined;
    const refused = raw === undefined ? [] : problemsOf(() => void (config[name] = parseValue(name, spec, raw)));
    if (refused.length > 0) {
      problems.push(...refused);
      config[name] = spec.default === undefined ? undefined : parseValue(name, spec, spec.default);
    }
  }
  for (const rule of rules) problems.push(...problemsOf(() => rule(config as ConfigOf<S>)));
  if (problems.length > 0) throw new ConfigError(problems);
  return config as ConfigOf<S>;
}

/** A rule that holds outside production and checks `rule` in it. */
export function inProduction<C extends { NODE_ENV?: string }>(rule: ConfigRule<C>): ConfigRule<C> {
  return (config) => (config.NODE_ENV === 'production' ? rule(config) : undefined);
}

/** A Markdown table of the variables, for the README and `--help`. */
export function describeVariables(specs: Specs): string {
  const rows = Object.entries(specs).map(
    ([name, spec]) => `| \`${name}\` | ${spec.default === undefined ? '—' : `\`${spec.default}\``} | ${spec.description} |`,
  );
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

export * from './brand';
