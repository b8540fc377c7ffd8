import { ConfigError, inProduction, readConfig, variable } from './index';

const specs = {
  PORT: variable.int('port', 3001, 0, 65535),
  AMQP_URL: variable.url('broker', ['amqp', 'amqps']),
  ORIGINS: variable.list('origins'),
  ENABLED: variable.bool('flag', false),
  NODES: variable.urls('cluster nodes', ['amqp', 'amqps']),
};

describe('readConfig', () => {
  it('applies defaults when a variable is unset or empty', () => {
    expect(readConfig(specs, { PORT: '' })).toEqual({ PORT: 3001, AMQP_URL: undefined, ORIGINS: [], ENABLED: false, NODES: undefined });
  });

  it('parses every kind', () => {
    const config = readConfig(specs, { PORT: '8080', AMQP_URL: 'amqp://x', ORIGINS: 'a, b', ENABLED: 'true' });
    expect(config).toEqual({ PORT: 8080, AMQP_URL: 'amqp://x', ORIGINS: ['a', 'b'], ENABLED: true, NODES: undefined });
  });

  it("takes a cluster's node addresses separated by commas, each checked, where a variable says so", () => {
    expect(readConfig(specs, { NODES: 'amqp://a:5672, amqps://b:5671' }).NODES).toBe('amqp://a:5672, amqps://b:5671');
    expect(() => readConfig(specs, { AMQP_URL: 'amqp://a:5672,amqp://b:5672' })).toThrow(/AMQP_URL must be a URL/);
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be between 0 and 65535/],
    [{ AMQP_URL: 'http://x' }, /AMQP_URL must use amqp or amqps/],
    [{ AMQP_URL: 'not a url' }, /AMQP_URL must be a URL/],
    [{ ENABLED: 'maybe' }, /ENABLED must be true or false/],
    [{ NODES: 'amqp://a:5672, http://b' }, /NODES must use amqp or amqps/],
    [{ NODES: 'amqp://a:5672,,' }, /NODES must be URLs separated by commas/],
  ])('names the variable when %p is invalid', (env, message) => {
    expect(() => readConfig(specs, env)).toThrow(ConfigError);
    expect(() => readConfig(specs, env)).toThrow(message);
  });
});

describe('readConfig reports every problem at once', () => {
  it('lists each refused variable and each broken rule in one ConfigError', () => {
    let error: ConfigError | undefined;
    try {
      readConfig(specs, { PORT: 'abc', AMQP_URL: 'http://x', ENABLED: 'maybe' }, [
        (c) => !c.AMQP_URL && 'AMQP_URL must be set',
        (c) => c.PORT === 3001 && 'PORT must not be the default',
        () => {
          throw new ConfigError(['from a rule that throws']);
        },
      ]);
    } catch (thrown) {
      error = thrown as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.problems).toEqual([
      'PORT must be a whole number, got "abc"',
      'AMQP_URL must use amqp or amqps, got "http"',
      'ENABLED must be true or false, got "maybe"',
      'AMQP_URL must be set',
      'PORT must not be the default',
      'from a rule that throws',
    ]);
    expect(error!.message).toMatch(/^6 configuration errors:\n- PORT must be a whole number/);
  });

  it('passes when every rule holds, and inProduction rules only in production', () => {
    const rule = inProduction<{ NODE_ENV?: string }>(() => 'refused in production');
    const withEnv = { ...specs, NODE_ENV: variable.string('env', 'development') };
    expect(readConfig(withEnv, {}, [rule]).NODE_ENV).toBe('development');
    expect(() => readConfig(withEnv, { NODE_ENV: 'production' }, [rule])).toThrow('refused in production');
  });
});
