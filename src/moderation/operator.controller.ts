import { Body, Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../common/public.decorator';
import { OperatorRoleInput } from './moderation.input';
import type { OperatorRoleModel } from './moderation.model';
import { OPERATOR_HEADER, OperatorService } from './operator.service';

/**
 * `npm run admin` through a running service that holds its PGlite folder
 * (./operator.service.ts): not in the public API, no account, only the data
 * folder's secret, only from this machine.
 */
@ApiExcludeController()
@Public()
@Controller('v1/operator')
export class OperatorController {
  constructor(private readonly operator: OperatorService) {}

  @Post('roles')
  @HttpCode(200)
  roles(@Headers(OPERATOR_HEADER) secret: string | undefined, @Req() req: Request, @Body() body: OperatorRoleInput): Promise<OperatorRoleModel> {
    this.operator.authorize(secret, { remoteAddress: req.socket.remoteAddress, localAddress: req.socket.localAddress });
    return this.operator.setRole(body.operator ?? 'unknown', body.action, body.role, body.username, body.reason ?? null);
  }
}
