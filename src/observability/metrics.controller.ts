import { Controller, Get, Header } from '@nestjs/common';
import { SkipRateLimit } from '../common/public.decorator';
import { Public } from '../common/public.decorator';
import { MetricsService } from './metrics.service';
import { ApiOkResponse, ApiOperation, ApiProduces } from '@nestjs/swagger';

@Public()
@SkipRateLimit()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @ApiOperation({ operationId: 'render', summary: 'Prometheus metrics (text exposition format)' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'The Prometheus text exposition format (version 0.0.4).', schema: { type: 'string' } })
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  render(): Promise<string> {
    return this.metrics.render();
  }
}
