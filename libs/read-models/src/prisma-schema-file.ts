import { readFileSync } from 'node:fs';

/**
 * A small reader of prisma/schema.prisma, enough for the test that proves the Prisma models
 * match the tables the SQL migrations create (Prisma's own CLI cannot run on these machines).
 */
export interface PrismaField {
  name: string;
  column: string;
  type: string;
  optional: boolean;
  nativeType: string | undefined;
}

export interface PrismaModel {
  name: string;
  table: string;
  fields: PrismaField[];
  primaryKey: string[];
  indexes: { name: string; columns: string[] }[];
}

export function readPrismaModels(schemaPath: string): PrismaModel[] {
  const text = readFileSync(schemaPath, 'utf8');
  const models: PrismaModel[] = [];
  for (const match of text.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
    const [, name = '', body = ''] = match;
    const fields: PrismaField[] = [];
    let table = name;
    let primaryKey: string[] = [];
    const indexes: { name: string; columns: string[] }[] = [];
    for (const raw of body.split('\n')) {
      const line = raw.trim();
      if (line === '' || line.startsWith('//')) continue;
      if (line.startsWith('@@map(')) table = /@@map\("([^"]+)"\)/.exec(line)?.[1] ?? table;
      else if (line.startsWith('@@id(')) primaryKey = listOf(line);
      else if (line.startsWith('@@index(')) {
        indexes.push({ name: /map:\s*"([^"]+)"/.exec(line)?.[1] ?? '', columns: listOf(line) });
      } else if (!line.startsWith('@@')) {
        const [fieldName = '', rawType = ''] = line.split(/\s+/);
        fields.push({
          name: fieldName,
          column: /@map\("([^"]+)"\)/.exec(line)?.[1] ?? fieldName,
          type: rawType.replace('?', ''),
          optional: rawType.endsWith('?'),
          nativeType: /@db\.(\w+(\([^)]*\))?)/.exec(line)?.[1],
        });
        if (/\s@id\b/.test(line)) primaryKey = [fieldName];
      }
    }
    const columnOf = (field: string) => fields.find((f) => f.name === field)?.column ?? field;
    models.push({
      name,
      table,
      fields,
      primaryKey: primaryKey.map(columnOf),
      indexes: indexes.map((index) => ({ name: index.name, columns: index.columns.map(columnOf) })),
    });
  }
  return models;
}

/** Field names inside `[...]`, without sort options. */
function listOf(line: string): string[] {
  const inside = /\[([^\]]*)\]/.exec(line)?.[1] ?? '';
  return inside
    .split(',')
    .map((part) => part.trim().replace(/\(.*\)$/, ''))
    .filter(Boolean);
}
