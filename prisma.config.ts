// Prisma 7 reads its CLI configuration here. The project uses the CLI only for `generate`
// (migrations are plain SQL applied by the project, see libs/database/src/migrations.ts).
export default {
  schema: 'prisma/schema.prisma',
};
