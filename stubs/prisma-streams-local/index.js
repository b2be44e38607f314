'use strict';
// Only `prisma dev` (a local Prisma Postgres) loads this package; this project does not use it (docs/development.md "Install").
throw new Error('@prisma/streams-local is not installed in this project: `prisma dev` is not supported here (docs/development.md "Install")');
