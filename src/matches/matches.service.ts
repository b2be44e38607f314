import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { MatchStore } from './match-store';

/**
 * The match application service for Nest: all logic is in MatchStore (a plain
 * class, tested without Nest). See match-store.ts for the API.
 */
@Injectable()
export class MatchesService extends MatchStore {
  constructor(prisma: PrismaService) {
    super(prisma);
  }
}
