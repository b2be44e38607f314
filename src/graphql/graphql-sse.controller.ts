import { All, Controller, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipRateLimit } from '../common/public.decorator';
import { Caller } from '../common/principal';
import type { Principal } from '../common/principal';
import { GraphqlSseService } from './graphql-sse.service';

/**
 * GraphQL over Server-Sent Events at /graphql/stream (graphql-sse's
 * convention): a GraphQL transport, documented in docs/api.md beside
 * graphql-ws, not a REST operation. Each operation is charged its document's
 * cost, as over graphql-ws, not the request (hence no rate limit here).
 */
@ApiExcludeController()
@Controller('graphql/stream')
export class GraphqlSseController {
  constructor(private readonly sse: GraphqlSseService) {}

  @All()
  @SkipRateLimit()
  async stream(@Caller() caller: Principal, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.sse.handle(caller, req, res);
  }
}
