import { Args, Int, Query, Resolver } from '@nestjs/graphql';
import { Public } from '../common/public.decorator';
import { CrosstableModel, LeaderboardEntryModel, RatingPointModel, UserProfileModel } from './ratings.model';
import { RatingsService } from './ratings.service';

@Public()
@Resolver()
export class RatingsResolver {
  constructor(private readonly ratings: RatingsService) {}

  @Query(() => UserProfileModel, { description: 'A player: per rating pool the rating, RD, volatility, games and provisional flag; wins, losses, draws; member since. Also bot:<level>.' })
  user(@Args('username') username: string): Promise<UserProfileModel> {
    return this.ratings.profile(username);
  }

  @Query(() => [RatingPointModel], { description: 'One point per rated match in a pool, oldest first (at most the last 1,000).' })
  ratingHistory(@Args('username') username: string, @Args('ruleset') ruleset: string): Promise<RatingPointModel[]> {
    return this.ratings.history(username, ruleset);
  }

  @Query(() => [LeaderboardEntryModel], { description: 'The top ratings of a pool, provisional ones left out (limit 1..100, default 10).' })
  leaderboard(@Args('ruleset') ruleset: string, @Args('limit', { type: () => Int, nullable: true }) limit?: number): Promise<LeaderboardEntryModel[]> {
    return this.ratings.leaderboard(ruleset, limit ?? undefined);
  }

  @Query(() => CrosstableModel, { description: "Head to head in rated matches from a's side: wins, losses, draws per pool, and the last matches." })
  crosstable(@Args('a') a: string, @Args('b') b: string): Promise<CrosstableModel> {
    return this.ratings.crosstable(a, b);
  }
}
