import request from 'supertest';
import { createTcpProxy, fnolBody, testAmqpUrl, type TcpProxy } from '@platform/testing';
import { startClaimsTestService, type ClaimsTestService } from './testing/claims-test-service';

/** broker_connection_up as /metrics reads it now. */
async function brokerUp(url: string): Promise<string | undefined> {
  const text = (await request(url).get('/metrics').expect(200)).text;
  return /^broker_connection_up\{service="claims"\} (\d)$/m.exec(text)?.[1];
}

async function until(what: string, condition: () => Promise<boolean>, timeoutMs = 15000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Readiness is the process's own database only: with the broker unreachable (the real RabbitMQ behind a TCP
 * proxy that is cut, the shared broker untouched) the service stays ready, intake keeps answering 201 with
 * the event held in the outbox, and the outage shows in broker_connection_up instead.
 */
describe('claims service with the broker unreachable', () => {
  let proxy: TcpProxy;
  let t: ClaimsTestService;

  beforeAll(async () => {
    const real = new URL(testAmqpUrl());
    proxy = await createTcpProxy(real.hostname, Number(real.port || 5672));
    t = await startClaimsTestService({ AMQP_URL: proxy.urlFor(testAmqpUrl()) });
  });
  afterAll(async () => {
    proxy?.restore();
    await t?.stop();
    await proxy?.close();
  });

  it('stays ready, keeps answering intake 201, reports broker_connection_up 0, and publishes the held events once the broker is back', async () => {
    await until('the broker is connected', async () => (await brokerUp(t.url)) === '1');
    proxy.cut();
    await until('broker_connection_up reads 0', async () => (await brokerUp(t.url)) === '0');

    const ready = await request(t.url).get('/readyz').expect(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok' } });
    const filed: string[] = [];
    for (let i = 0; i < 3; i++)
      filed.push((await request(t.url).post('/api/claims/public/claims').send(fnolBody()).expect(201)).body.claim_id);
    await request(t.url).get('/readyz').expect(200);
    const pending = await t.db('outbox').whereNull('published_at').count<{ n: string }[]>({ n: '*' });
    expect(Number(pending[0].n)).toBeGreaterThanOrEqual(filed.length);

    proxy.restore();
    await until('broker_connection_up reads 1 again', async () => (await brokerUp(t.url)) === '1');
    await t.events.waitFor(
      (all) => filed.every((id) => all.some((event) => event.routingKey === 'claim.created' && event.body.data.claim_id === id)),
      20000,
    );
  });
});
