import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Caller, PROFILE_READ, RequireScope, TEAM_WRITE } from '../common/principal';
import type { Principal } from '../common/principal';
import { TeamsService } from './teams.service';
import { CreateTeamInput, TeamItemsArgs, TeamSearchQuery } from './team.input';
import { TeamMemberPageModel, TeamModel, TeamPageModel, TeamRequestPageModel } from './team.model';

const TEAM_ID = { type: () => ID, description: 'The team.' } as const;
const USERNAME = { description: 'The player.' } as const;

@Resolver()
export class TeamsResolver {
  constructor(private readonly service: TeamsService) {}

  @RequireScope(PROFILE_READ)
  @Query(() => TeamPageModel, { description: 'Teams by name, in cursor pages; with q, those whose name contains it (without regard to case).' })
  teams(@Caller() caller: Principal, @Args() q: TeamSearchQuery): Promise<TeamPageModel> {
    return this.service.list(caller, q.q, q.first, q.after);
  }

  @RequireScope(PROFILE_READ)
  @Query(() => TeamModel, { description: 'A team: its name, description, leaders, member count, and my role in it.' })
  team(@Caller() caller: Principal, @Args('id', TEAM_ID) id: string): Promise<TeamModel> {
    return this.service.get(caller, id);
  }

  @RequireScope(PROFILE_READ)
  @Query(() => TeamMemberPageModel, { description: "A team's members, by username, each with their ratings, in cursor pages." })
  teamMembers(@Args() q: TeamItemsArgs): Promise<TeamMemberPageModel> {
    return this.service.members(q.id, q.first, q.after);
  }

  @RequireScope(PROFILE_READ)
  @Query(() => TeamRequestPageModel, {
    description: "A team's pending requests to join, oldest first, in cursor pages (for its leaders: FORBIDDEN otherwise).",
  })
  teamRequests(@Caller() caller: Principal, @Args() q: TeamItemsArgs): Promise<TeamRequestPageModel> {
    return this.service.requests(caller, q.id, q.first, q.after);
  }

  @RequireScope(TEAM_WRITE)
  @Mutation(() => TeamModel, { description: 'Create a team (open, or by request): I am its first leader. A name taken (without regard to case): CONFLICT.' })
  createTeam(
    @Caller() caller: Principal,
    @Args('input', { description: 'Its name, description and whether it is open.' }) input: CreateTeamInput,
  ): Promise<TeamModel> {
    return this.service.create(caller, input);
  }

  @RequireScope(TEAM_WRITE)
  @Mutation(() => TeamModel, {
    description: 'Join a team: an open team at once; one by request (or one that kicked me) through a request its leaders answer. Again: no change.',
  })
  joinTeam(@Caller() caller: Principal, @Args('id', TEAM_ID) id: string): Promise<TeamModel> {
    return this.service.join(caller, id);
  }

  @RequireScope(TEAM_WRITE)
  @Mutation(() => TeamModel, {
    description:
      "Leave a team (or withdraw my pending request). The last leader appoints another before leaving (CONFLICT); the last member's leaving dissolves it.",
  })
  leaveTeam(@Caller() caller: Principal, @Args('id', TEAM_ID) id: string): Promise<TeamModel> {
    return this.service.leave(caller, id);
  }

  @RequireScope(TEAM_WRITE)
  @Mutation(() => TeamModel, { description: "Accept a player's request to join my team (as its leader)." })
  acceptTeamRequest(@Caller() caller: Principal, @Args('id', TEAM_ID) id: string, @Args('username', USERNAME) username: string): Promise<TeamModel> {
    return this.service.accept(caller, id, username);
  }

  @RequireScope(TEAM_WRITE)
  @Mutation(() => TeamModel, { description: "Decline a player's request to join my team (as its leader); they may ask again." })
  declineTeamRequest(@Caller() caller: Principal, @Args('id', TEAM_ID) id: string, @Args('username', USERNAME) username: string): Promise<TeamModel> {
    return this.service.decline(caller, id, username);
  }

  @RequireScope(TEAM_WRITE)
  @Mutation(() => TeamModel, {
    description: 'Remove a member (a leader too) from my team (as its leader); their next join is a request, even to an open team.',
  })
  kickTeamMember(@Caller() caller: Principal, @Args('id', TEAM_ID) id: string, @Args('username', USERNAME) username: string): Promise<TeamModel> {
    return this.service.kick(caller, id, username);
  }

  @RequireScope(TEAM_WRITE)
  @Mutation(() => TeamModel, { description: 'Make a member of my team a leader (as its leader); already one: no change.' })
  appointTeamLeader(@Caller() caller: Principal, @Args('id', TEAM_ID) id: string, @Args('username', USERNAME) username: string): Promise<TeamModel> {
    return this.service.appoint(caller, id, username);
  }
}
