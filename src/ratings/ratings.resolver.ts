import { Args, Query, Resolver } from '@nestjs/graphql';
import { Public } from '../common/public.decorator';
import { CrosstableModel, LeaderboardEntryModel, RatingPointModel, UserProfileModel } from './ratings.model';
import { RatingsService } from './ratings.service';
import { CrosstableArgs, LeaderboardArgs, RatingHistoryArgs, UserArgs } from './ratings.input';

@Public()
@Resolver()
export class RatingsResolver {
  constructor(private readonly ratings: RatingsService) {}

  @Query(() => UserProfileModel, {
    description: 'A player: per rating pool the rating, RD, volatility, games and provisional flag; wins, losses, draws; member since. Also bot:<level>.',
  })
  user(@Args() args: UserArgs): Promise<UserProfileModel> {
    return this.ratings.profile(args.username);
  }

  @Query(() => [RatingPointModel], { description: 'One point per rated match in a pool, oldest first (at most the last 1,000).' })
  ratingHistory(@Args() args: RatingHistoryArgs): Promise<RatingPointModel[]> {
    return this.ratings.history(args.username, args.ruleset);
  }

  @Query(() => [LeaderboardEntryModel], { description: 'The top ratings of a pool, provisional ones left out (limit 1..100, default 10).' })
  leaderboard(@Args() args: LeaderboardArgs): Promise<LeaderboardEntryModel[]> {
    return this.ratings.leaderboard(args.ruleset, args.limit ?? undefined);
  }

  @Query(() => CrosstableModel, { description: "Head to head in rated matches from a's side: wins, losses, draws per pool, and the last matches." })
  crosstable(@Args() args: CrosstableArgs): Promise<CrosstableModel> {
    return this.ratings.crosstable(args.a, args.b);
  }
}
