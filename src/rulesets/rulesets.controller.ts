import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/public.decorator';
import { Caller, RequireScope, PROFILE_READ, RULESET_WRITE } from '../common/principal';
import type { Principal } from '../common/principal';
import { CustomRulesetsService } from './custom-rulesets.service';
import { CustomRulesetModel, PresetModel } from './ruleset.model';
import { SaveRulesetInput } from './ruleset.input';
import { PresetsService } from './presets.service';
import { ApiErrors } from '../common/api-errors';

@ApiTags('rulesets')
@Controller('v1')
export class RulesetsController {
  constructor(
    private readonly presets: PresetsService,
    private readonly custom: CustomRulesetsService,
  ) {}

  @Public()
  @Get('rulesets')
  @ApiOperation({ operationId: 'listPresets', summary: 'Every preset with its resolved options and its seed sources' })
  @ApiOkResponse({ type: [PresetModel] })
  list(): PresetModel[] {
    return this.presets.list();
  }

  @Public()
  @Get('rulesets/:id')
  @ApiOperation({ operationId: 'getPreset', summary: 'One preset' })
  @ApiOkResponse({ type: PresetModel })
  get(@Param('id') id: string): PresetModel {
    return this.presets.get(id);
  }

  @RequireScope(RULESET_WRITE)
  @Post('custom-rulesets')
  @ApiBearerAuth()
  @ApiErrors('INVALID_RULESET', 'CONFLICT')
  @ApiOperation({ operationId: 'saveCustomRuleset', summary: 'Save a named custom ruleset (a new version once a match uses the latest)' })
  @ApiCreatedResponse({ type: CustomRulesetModel })
  save(@Caller() caller: Principal, @Body() body: SaveRulesetInput): Promise<CustomRulesetModel> {
    return this.custom.save(caller, body.name, body.preset, body.overrides ?? {});
  }

  @RequireScope(PROFILE_READ)
  @Get('custom-rulesets')
  @ApiBearerAuth()
  @ApiOperation({ operationId: 'listMyCustomRulesets', summary: 'My saved custom rulesets, every version' })
  @ApiOkResponse({ type: [CustomRulesetModel] })
  mine(@Caller() caller: Principal): Promise<CustomRulesetModel[]> {
    return this.custom.mine(caller);
  }

  @Get('custom-rulesets/:id')
  @ApiBearerAuth()
  @ApiOperation({ operationId: 'getCustomRuleset', summary: 'A saved custom ruleset by id (shareable)' })
  @ApiOkResponse({ type: CustomRulesetModel })
  getCustom(@Param('id') id: string): Promise<CustomRulesetModel> {
    return this.custom.get(id);
  }
}
