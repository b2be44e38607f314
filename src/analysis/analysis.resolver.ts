import { Args, ID, Mutation, Query, Resolver, Subscription } from '@nestjs/graphql';
import { Caller, MATCH_PLAY, RequireScope } from '../common/principal';
import type { Principal } from '../common/principal';
import { AnalysisService } from './analysis.service';
import { AnalysisModel, AnalysisProgressModel } from './analysis.model';

@Resolver()
export class AnalysisResolver {
  constructor(private readonly analyses: AnalysisService) {}

  @RequireScope(MATCH_PLAY)
  @Mutation(() => AnalysisModel, {
    description:
      'Ask for the post-game analysis of a finished match (public, or one I played): its job status, or its result once done. Asking again returns the same job or result. ANALYSIS_QUEUE_FULL beyond the queue limits; ANALYSIS_TOO_LARGE beyond ANALYSIS_MAX_DECISIONS decisions (nothing queued).',
  })
  async requestAnalysis(@Caller() caller: Principal, @Args('matchId', { type: () => ID }) matchId: string): Promise<AnalysisModel> {
    return (await this.analyses.request(caller, matchId)) as AnalysisModel;
  }

  @Query(() => AnalysisModel, {
    description: 'The post-game analysis of a finished match: its job status, or its result once done (NOT_FOUND when nobody asked for it).',
  })
  async analysis(@Caller() caller: Principal, @Args('matchId', { type: () => ID }) matchId: string): Promise<AnalysisModel> {
    return (await this.analyses.get(caller, matchId)) as AnalysisModel;
  }

  @Subscription(() => AnalysisProgressModel, {
    description:
      'Where the analysis of a match stands (if asked for), then each change as its job runs: queued, running (share of the decisions done), done, failed; it ends after done or failed.',
    resolve: (value: AnalysisProgressModel) => value,
  })
  analysisProgress(@Caller() caller: Principal, @Args('matchId', { type: () => ID }) matchId: string): Promise<AsyncIterableIterator<unknown>> {
    return this.analyses.progress(caller, matchId);
  }
}
