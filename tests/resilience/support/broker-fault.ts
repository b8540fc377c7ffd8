import { execFileSync } from 'node:child_process';
import { rabbitReachable, testAmqpUrl } from '@platform/testing';
import { waitForPort } from './stack';
import { createTcpProxy, type TcpProxy } from './tcp-proxy';

/**
 * Takes the broker away and brings it back. In CI (CI=true, nothing else running) RabbitMQ itself is
 * stopped with `rabbitmqctl stop_app`; elsewhere the broker is shared, so the stack reaches it through a
 * TCP proxy that is cut instead.
 */
export interface BrokerFault {
  /** AMQP_URL to give the stack. */
  amqpUrl: string;
  method: string;
  takeAway(): Promise<void>;
  bringBack(): Promise<void>;
  /** Always brings the broker back and waits until 5672 answers again. */
  close(): Promise<void>;
}

export async function brokerFault(): Promise<BrokerFault> {
  const real = new URL(testAmqpUrl());
  const host = real.hostname;
  const port = Number(real.port || 5672);
  if (process.env.CI === 'true') {
    let down = false;
    const start = async () => {
      if (down) execFileSync('rabbitmqctl', ['start_app'], { stdio: 'ignore', timeout: 120000 });
      down = false;
      await waitForPort(host, port, 120000);
      const deadline = Date.now() + 60000;
      while (!(await rabbitReachable(testAmqpUrl()))) {
        if (Date.now() > deadline) throw new Error('RabbitMQ did not accept AMQP connections after start_app');
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    };
    return {
      amqpUrl: testAmqpUrl(),
      method: 'rabbitmqctl stop_app / start_app',
      async takeAway() {
        down = true;
        execFileSync('rabbitmqctl', ['stop_app'], { stdio: 'ignore', timeout: 120000 });
      },
      bringBack: start,
      close: start,
    };
  }
  const proxy: TcpProxy = await createTcpProxy(host, port);
  return {
    amqpUrl: proxy.urlFor(testAmqpUrl()),
    method: 'TCP proxy in front of RabbitMQ cut / restored',
    async takeAway() {
      proxy.cut();
    },
    async bringBack() {
      proxy.restore();
      await waitForPort(host, port);
    },
    async close() {
      proxy.restore();
      await proxy.close();
      await waitForPort(host, port);
    },
  };
}
