// A direct API client, to compare what the dashboard shows with the server.
import type { Login } from './context.ts';

export class Api {
  private readonly base: string;
  private readonly token: string;

  private constructor(base: string, token: string) {
    this.base = base;
    this.token = token;
  }

  static async signIn(base: string, login: Login): Promise<Api> {
    const response = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(login),
    });
    if (!response.ok) throw new Error(`login failed: ${String(response.status)}`);
    return new Api(base, ((await response.json()) as { accessToken: string }).accessToken);
  }

  async get<T>(path: string): Promise<T> {
    const response = await fetch(`${this.base}/api/${path}`, { headers: { authorization: `Bearer ${this.token}` } });
    if (!response.ok) throw new Error(`GET ${path}: ${String(response.status)}`);
    return (await response.json()) as T;
  }

  /** A change, e.g. answering a shutdown request a test left pending. */
  async send(method: string, path: string, body: unknown): Promise<void> {
    const response = await fetch(`${this.base}/api/${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${String(response.status)}`);
  }

  async count(path: string): Promise<number> {
    return (await this.get<{ count: number }>(`proxy/${path}/count`)).count;
  }
}

export interface ApiGateway {
  _id: string;
  serialNumber: string;
  bleAddress: string;
  lastseen: string | null;
}

export interface ApiMeter {
  _id: string;
  serialNumber: string;
  bleAddress: string;
  lastGatewayId: string | null;
  lastseen: string | null;
}
