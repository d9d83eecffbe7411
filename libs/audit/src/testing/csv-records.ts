/**
 * Reads RFC 4180 text back into records, independently of the statement's writer: quoted fields
 * may hold commas, doubled quotes and line breaks. Test code only.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i += 1;
      records.push([...record, field]);
      [record, field] = [[], ''];
    } else field += char;
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}
