import type { INestApplication } from '@nestjs/common';
import request from 'supertest';

export interface Account {
  username: string;
  token: string;
  id: string;
}

let counter = 0;
export function uniqueName(prefix: string): string {
  counter++;
  return `${prefix}${process.pid % 1000}${counter}${Math.floor(Math.random() * 1000)}`;
}

export async function register(app: INestApplication, prefix = 'user'): Promise<Account> {
  const username = uniqueName(prefix);
  const res = await request(app.getHttpServer())
    .post('/v1/auth/register')
    .send({ username, password: 'password-of-' + username });
  if (res.status !== 201) throw new Error(`register ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return { username, token: res.body.accessToken, id: res.body.account.id };
}

export interface GqlResult {
  status: number;
  data?: any;
  errors?: { message: string; extensions: Record<string, unknown> }[];
  raw: string;
}

export async function gql(app: INestApplication, token: string | null, query: string, variables: Record<string, unknown> = {}): Promise<GqlResult> {
  let req = request(app.getHttpServer()).post('/graphql').set('content-type', 'application/json');
  if (token) req = req.set('authorization', `Bearer ${token}`);
  const res = await req.send({ query, variables });
  return { status: res.status, data: res.body?.data, errors: res.body?.errors, raw: res.text };
}

/** The data of a GraphQL call that must succeed. */
export async function gqlOk(app: INestApplication, token: string | null, query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const r = await gql(app, token, query, variables);
  if (r.errors?.length || r.status !== 200) throw new Error(`GraphQL failed (${r.status}): ${r.raw}`);
  return r.data;
}

export function errorCode(r: GqlResult): unknown {
  return r.errors?.[0]?.extensions?.code;
}
