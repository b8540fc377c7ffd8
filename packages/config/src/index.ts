/**
 * Configuration is read once from the environment and validated; a bad value stops start-up with a
 * message that names the variable. Every variable is declared with its default and description, so the
 * same declarations produce the documentation (see `describeVariables`).
 */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

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

export function readConfig<S extends Specs>(specs: S, env: NodeJS.ProcessEnv = process.env): ConfigOf<S> {
  const config: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const raw = env[name] === undefined || env[name] === '' ? spec.default : env[name];
    config[name] = raw === undefined ? undefined : parseValue(name, spec, raw);
  }
  return config as ConfigOf<S>;
}

/** A Markdown table of the variables, for the README and `--help`. */
export function describeVariables(specs: Specs): string {
  const rows = Object.entries(specs).map(
    ([name, spec]) => `| \`${name}\` | ${spec.default === undefined ? '—' : `\`${spec.default}\``} | ${spec.description} |`,
  );
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}
