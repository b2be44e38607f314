import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Public } from '../common/public.decorator';
import { Caller, RequireScope, PROFILE_READ, RULESET_WRITE } from '../common/principal';
import type { Principal } from '../common/principal';
import { CustomRulesetsService } from './custom-rulesets.service';
import { CustomRulesetModel, PresetModel } from './ruleset.model';
import { SaveRulesetInput } from './ruleset.input';
import { PresetsService } from './presets.service';

@Resolver()
export class RulesetsResolver {
  constructor(
    private readonly presets: PresetsService,
    private readonly custom: CustomRulesetsService,
  ) {}

  @Public()
  @Query(() => [PresetModel], { description: 'Every preset with its resolved options and its seed sources.' })
  rulesets(): PresetModel[] {
    return this.presets.list();
  }

  @Public()
  @Query(() => PresetModel, { description: 'One preset by id.' })
  preset(@Args('id', { type: () => ID }) id: string): PresetModel {
    return this.presets.get(id);
  }

  @Query(() => CustomRulesetModel, { description: 'A saved custom ruleset by id (shareable).' })
  customRuleset(@Args('id', { type: () => ID }) id: string): Promise<CustomRulesetModel> {
    return this.custom.get(id);
  }

  @RequireScope(PROFILE_READ)
  @Query(() => [CustomRulesetModel], { description: 'My saved custom rulesets, every version.' })
  myCustomRulesets(@Caller() caller: Principal): Promise<CustomRulesetModel[]> {
    return this.custom.mine(caller);
  }

  @RequireScope(RULESET_WRITE)
  @Mutation(() => CustomRulesetModel, { description: 'Save a named custom ruleset (a new version once a match uses the latest).' })
  saveCustomRuleset(@Caller() caller: Principal, @Args('input') input: SaveRulesetInput): Promise<CustomRulesetModel> {
    return this.custom.save(caller, input.name, input.preset, input.overrides ?? {});
  }
}
