import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller, PROFILE_READ, RequireScope, TEAM_WRITE } from '../common/principal';
import type { Principal } from '../common/principal';
import { ApiErrors } from '../common/api-errors';
import { TeamsService } from './teams.service';
import { CreateTeamInput, TeamPageQuery, TeamSearchQuery } from './team.input';
import { TeamMemberPageModel, TeamModel, TeamPageModel, TeamRequestPageModel } from './team.model';

@ApiTags('teams')
@ApiBearerAuth()
@Controller('v1/teams')
export class TeamsController {
  constructor(private readonly teams: TeamsService) {}

  @RequireScope(TEAM_WRITE)
  @Post()
  @ApiOperation({ operationId: 'createTeam', summary: 'Create a team (open, or by request): I am its first leader' })
  @ApiCreatedResponse({ type: TeamModel })
  @ApiErrors('CONFLICT', 'LIMIT_REACHED')
  create(@Caller() caller: Principal, @Body() body: CreateTeamInput): Promise<TeamModel> {
    return this.teams.create(caller, body);
  }

  @RequireScope(PROFILE_READ)
  @Get()
  @ApiOperation({ operationId: 'listTeams', summary: 'Teams by name, in cursor pages; with q, those whose name contains it (without regard to case)' })
  @ApiOkResponse({ type: TeamPageModel })
  list(@Caller() caller: Principal, @Query() q: TeamSearchQuery): Promise<TeamPageModel> {
    return this.teams.list(caller, q.q, q.first, q.after);
  }

  @RequireScope(PROFILE_READ)
  @Get(':id')
  @ApiOperation({ operationId: 'getTeam', summary: 'A team: its name, description, leaders, member count, and my role in it' })
  @ApiOkResponse({ type: TeamModel })
  @ApiErrors('NOT_FOUND')
  get(@Caller() caller: Principal, @Param('id') id: string): Promise<TeamModel> {
    return this.teams.get(caller, id);
  }

  @RequireScope(TEAM_WRITE)
  @Post(':id/join')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'joinTeam',
    summary: 'Join a team: an open team at once; one by request (or one that kicked me) through a request its leaders answer. Again: no change',
  })
  @ApiOkResponse({ type: TeamModel })
  @ApiErrors('NOT_FOUND', 'LIMIT_REACHED')
  join(@Caller() caller: Principal, @Param('id') id: string): Promise<TeamModel> {
    return this.teams.join(caller, id);
  }

  @RequireScope(TEAM_WRITE)
  @Post(':id/leave')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'leaveTeam',
    summary: "Leave a team (or withdraw my pending request); the last leader appoints another before leaving; the last member's leaving dissolves it",
  })
  @ApiOkResponse({ type: TeamModel })
  @ApiErrors('NOT_FOUND', 'CONFLICT')
  leave(@Caller() caller: Principal, @Param('id') id: string): Promise<TeamModel> {
    return this.teams.leave(caller, id);
  }

  @RequireScope(PROFILE_READ)
  @Get(':id/members')
  @ApiOperation({ operationId: 'teamMembers', summary: "A team's members, by username, each with their ratings, in cursor pages" })
  @ApiOkResponse({ type: TeamMemberPageModel })
  @ApiErrors('NOT_FOUND')
  members(@Param('id') id: string, @Query() q: TeamPageQuery): Promise<TeamMemberPageModel> {
    return this.teams.members(id, q.first, q.after);
  }

  @RequireScope(PROFILE_READ)
  @Get(':id/requests')
  @ApiOperation({ operationId: 'teamRequests', summary: "A team's pending requests to join, oldest first, in cursor pages (for its leaders)" })
  @ApiOkResponse({ type: TeamRequestPageModel })
  @ApiErrors('NOT_FOUND', 'FORBIDDEN')
  requests(@Caller() caller: Principal, @Param('id') id: string, @Query() q: TeamPageQuery): Promise<TeamRequestPageModel> {
    return this.teams.requests(caller, id, q.first, q.after);
  }

  @RequireScope(TEAM_WRITE)
  @Post(':id/requests/:username/accept')
  @HttpCode(200)
  @ApiOperation({ operationId: 'acceptTeamRequest', summary: "Accept a player's request to join my team (as its leader): they are a member" })
  @ApiOkResponse({ type: TeamModel })
  @ApiErrors('NOT_FOUND', 'FORBIDDEN')
  accept(@Caller() caller: Principal, @Param('id') id: string, @Param('username') username: string): Promise<TeamModel> {
    return this.teams.accept(caller, id, username);
  }

  @RequireScope(TEAM_WRITE)
  @Post(':id/requests/:username/decline')
  @HttpCode(200)
  @ApiOperation({ operationId: 'declineTeamRequest', summary: "Decline a player's request to join my team (as its leader); they may ask again" })
  @ApiOkResponse({ type: TeamModel })
  @ApiErrors('NOT_FOUND', 'FORBIDDEN')
  decline(@Caller() caller: Principal, @Param('id') id: string, @Param('username') username: string): Promise<TeamModel> {
    return this.teams.decline(caller, id, username);
  }

  @RequireScope(TEAM_WRITE)
  @Post(':id/kick/:username')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'kickTeamMember',
    summary: 'Remove a member (a leader too) from my team (as its leader); their next join is a request, even to an open team',
  })
  @ApiOkResponse({ type: TeamModel })
  @ApiErrors('NOT_FOUND', 'FORBIDDEN', 'CONFLICT')
  kick(@Caller() caller: Principal, @Param('id') id: string, @Param('username') username: string): Promise<TeamModel> {
    return this.teams.kick(caller, id, username);
  }

  @RequireScope(TEAM_WRITE)
  @Post(':id/leaders/:username')
  @HttpCode(200)
  @ApiOperation({ operationId: 'appointTeamLeader', summary: 'Make a member of my team a leader (as its leader); already one: no change' })
  @ApiOkResponse({ type: TeamModel })
  @ApiErrors('NOT_FOUND', 'FORBIDDEN', 'LIMIT_REACHED')
  appoint(@Caller() caller: Principal, @Param('id') id: string, @Param('username') username: string): Promise<TeamModel> {
    return this.teams.appoint(caller, id, username);
  }
}
