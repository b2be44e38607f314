import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/public.decorator';
import { LeaderboardQuery, RatingHistoryQuery } from './ratings.input';
import { CrosstableModel, LeaderboardEntryModel, RatingPointModel, UserProfileModel } from './ratings.model';
import { RatingsService } from './ratings.service';
import { ApiOmitErrors } from '../common/api-errors';

@Public()
@ApiTags('ratings')
@Controller('v1')
export class RatingsController {
  constructor(private readonly ratings: RatingsService) {}

  @Get('users/:username')
  @ApiOperation({ operationId: 'getUser', summary: 'A player with a rating per pool (also bot:random, bot:greedy, bot:ismcts)' })
  @ApiOkResponse({ type: UserProfileModel })
  user(@Param('username') username: string): Promise<UserProfileModel> {
    return this.ratings.profile(username);
  }

  @Get('users/:username/rating-history')
  @ApiOperation({ operationId: 'ratingHistory', summary: 'One point per rated match in a pool, oldest first' })
  @ApiOkResponse({ type: [RatingPointModel] })
  history(@Param('username') username: string, @Query() q: RatingHistoryQuery): Promise<RatingPointModel[]> {
    return this.ratings.history(username, q.ruleset);
  }

  @Get('leaderboard/:ruleset')
  // an unknown pool is an empty leaderboard, never a 404
  @ApiOmitErrors('NOT_FOUND')
  @ApiOperation({ operationId: 'leaderboard', summary: 'The top established ratings of a pool, with rank' })
  @ApiOkResponse({ type: [LeaderboardEntryModel] })
  leaderboard(@Param('ruleset') ruleset: string, @Query() q: LeaderboardQuery): Promise<LeaderboardEntryModel[]> {
    return this.ratings.leaderboard(ruleset, q.limit);
  }

  @Get('crosstable/:a/:b')
  @ApiOperation({ operationId: 'crosstable', summary: 'Head to head in rated matches, per pool, and the last matches' })
  @ApiOkResponse({ type: CrosstableModel })
  crosstable(@Param('a') a: string, @Param('b') b: string): Promise<CrosstableModel> {
    return this.ratings.crosstable(a, b);
  }
}
