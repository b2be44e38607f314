import { Args, Context, Query, Resolver } from '@nestjs/graphql';
import type { Principal } from '../common/principal';
import { Public } from '../common/public.decorator';
import { UserMatchesArgs } from './archives.input';
import { UserMatchesPageModel } from './archives.model';
import { ArchivesService } from './archives.service';

@Public()
@Resolver()
export class ArchivesResolver {
  constructor(private readonly archives: ArchivesService) {}

  @Query(() => UserMatchesPageModel, {
    description:
      "A user's finished matches, newest first, cursor-paginated (max 1..100, default 20; `after` = the previous page's `next`). A private match is listed only to its players; an unverified import only to its importer.",
  })
  userMatches(@Args() q: UserMatchesArgs, @Context('req') req?: { user?: Principal }): Promise<UserMatchesPageModel> {
    return this.archives.page(q.username, q, req?.user?.username ?? null);
  }
}
