import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Caller, SessionOnly } from '../common/principal';
import type { Principal } from '../common/principal';
import { Public } from '../common/public.decorator';
import { OAuthGrantsService } from './oauth-grants.service';
import { ConsentDecisionInput, ConsentOutcomeModel, ConsentRequestModel } from './oauth.model';

/**
 * The consent step of the authorization endpoint, for the web client (not
 * part of the public API). The authorization server sends the browser to
 * /oauth/consent/{uid} with a cookie bound to that path, so only the browser
 * that started the request can see or answer it; the answer also needs the
 * signed-in user's password session (Authorization header).
 */
@ApiExcludeController()
@Controller('oauth/consent')
export class ConsentController {
  constructor(private readonly grants: OAuthGrantsService) {}

  /** The browser lands here from /oauth/authorize: on to the web client's consent page. */
  @Public()
  @Get(':uid')
  page(@Param('uid') uid: string, @Res() res: Response): void {
    res.redirect(303, `/#/oauth/consent/${encodeURIComponent(uid)}`);
  }

  @SessionOnly()
  @Get(':uid/request')
  request(
    @Caller() caller: Principal,
    @Param('uid') uid: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ConsentRequestModel> {
    return this.grants.consentRequest(req, res, uid, caller);
  }

  @SessionOnly()
  @Post(':uid')
  @HttpCode(200)
  decide(
    @Caller() caller: Principal,
    @Param('uid') uid: string,
    @Body() body: ConsentDecisionInput,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ConsentOutcomeModel> {
    return this.grants.decide(req, res, uid, caller, body.approve);
  }
}
