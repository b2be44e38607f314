import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { CustomRulesetsService } from './custom-rulesets.service';
import { RulesetVersionsStore } from '../ruleset-versions/ruleset-versions-store';
import { RulesetsController } from './rulesets.controller';
import { RulesetsResolver } from './rulesets.resolver';
import { PresetsService } from './presets.service';

@Module({
  imports: [DatabaseModule],
  controllers: [RulesetsController],
  providers: [PresetsService, CustomRulesetsService, RulesetVersionsStore, RulesetsResolver],
  exports: [PresetsService, CustomRulesetsService],
})
export class RulesetsModule {}
