import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/public.decorator';
import { ArchivesService } from './archives.service';
import { ExportKeySetModel } from './archives.model';

/** The public keys of signed exports, where an auditor (`npm run audit -- --keys <url>`) or another service finds them. */
@ApiTags('archives')
@Controller('.well-known')
export class ExportKeysController {
  constructor(private readonly archives: ArchivesService) {}

  @Public()
  @Get('scopa-keys.json')
  @Header('cache-control', 'public, max-age=300')
  @ApiOperation({
    operationId: 'exportKeys',
    summary: "The public keys that verify this service's signed exports (JWK set: Ed25519, EdDSA): the current key first, then the retired ones still kept",
  })
  @ApiOkResponse({ type: ExportKeySetModel })
  keys(): ExportKeySetModel {
    return this.archives.publicKeys();
  }
}
