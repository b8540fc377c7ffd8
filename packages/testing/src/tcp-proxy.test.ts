import { Client } from 'pg';
import { adminUrl } from './databases';
import { createTcpProxy, type TcpProxy } from './tcp-proxy';

async function query(url: string): Promise<number> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query('SELECT 1 AS one');
    return rows[0].one as number;
  } finally {
    await client.end().catch(() => undefined);
  }
}

describe('createTcpProxy', () => {
  let proxy: TcpProxy;
  beforeAll(async () => {
    const target = new URL(adminUrl());
    proxy = await createTcpProxy(target.hostname, Number(target.port || 5432));
  });
  afterAll(() => proxy.close());

  it('refuses connections while cut, breaks live ones, and forwards again after restore', async () => {
    const url = proxy.urlFor(adminUrl());
    expect(new URL(url).port).toBe(String(proxy.port));
    expect(await query(url)).toBe(1);

    const live = new Client({ connectionString: url });
    const broken = new Promise<void>((resolve) => live.on('error', () => resolve()));
    await live.connect();
    proxy.cut();
    expect(proxy.isCut).toBe(true);
    await broken;
    await expect(query(url)).rejects.toThrow();

    proxy.restore();
    expect(await query(url)).toBe(1);
  });
});
