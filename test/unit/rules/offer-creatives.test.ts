import {
  MaterialRow,
  checkCreativeSet,
  resolveCreative,
} from '../../../src/rules/creative-set';
import {materialTypeProblem, readFileCell} from '../../../src/rules/creative';

const SET = {
  creative_set_name: 'set_a',
  geos: 'US,GB',
  ad_outputs: [111, 121],
  creatives: 'hero,0123456789abcdef0123456789abcdef',
};

describe('checkCreativeSet (2.4)', () => {
  it('a complete row becomes the set, creatives as typed and once each', () => {
    expect(checkCreativeSet({...SET, creatives: 'hero,hero,clip'})).toEqual({
      problems: {},
      draft: {
        creative_set_name: 'set_a',
        geos: ['US', 'GB'],
        ad_outputs: [111, 121],
        creatives: ['hero', 'clip'],
      },
    });
  });

  it.each([
    [
      'creative_set_name',
      {...SET, creative_set_name: ''},
      'creative_set_name is required',
    ],
    [
      'geos',
      {...SET, geos: ''},
      'geos is required: ALL or geo codes such as US,GB',
    ],
    [
      'geos form',
      {...SET, geos: 'ALL,US'},
      'geos must be ALL alone or geo codes, not both',
    ],
    [
      'ad_outputs',
      {...SET, ad_outputs: null},
      'ad_outputs is required: creative output codes such as 111,121',
    ],
    [
      'ad_outputs integers',
      {...SET, ad_outputs: '111,big'},
      'ad_outputs must be whole numbers separated by commas (got "big")',
    ],
    [
      'creatives',
      {...SET, creatives: ''},
      'creatives is required: at least one material name or md5 from the Creatives sheet',
    ],
  ])('%s', (_field, row, message) => {
    const check = checkCreativeSet(row);
    expect(Object.values(check.problems)).toEqual([message]);
    expect(check.draft).toBeUndefined();
  });
});

describe('resolveCreative', () => {
  const rows: MaterialRow[] = [
    {row: 2, file: 'drive-1', creative_md5: '', creative_name: 'hero'},
    {
      row: 3,
      file: '',
      creative_md5: '0123456789abcdef0123456789abcdef',
      creative_name: 'clip',
    },
    {
      row: 4,
      file: '',
      creative_md5: 'fedcba9876543210fedcba9876543210',
      creative_name: 'twin',
    },
    {
      row: 5,
      file: '',
      creative_md5: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      creative_name: 'twin',
    },
  ];

  it('finds a material by md5 (any case), name or file', () => {
    expect(resolveCreative('0123456789ABCDEF0123456789ABCDEF', rows)).toEqual({
      ok: true,
      material: rows[1],
    });
    expect(resolveCreative('clip', rows)).toEqual({
      ok: true,
      material: rows[1],
    });
    expect(resolveCreative('drive-1', rows)).toEqual({
      ok: true,
      material: rows[0],
    });
  });

  it('refuses a name nothing has, and one two materials share', () => {
    expect(resolveCreative('villain', rows)).toEqual({
      ok: false,
      problem:
        'creatives names "villain", which is not in the Creatives sheet (as creative_md5, creative_name or file): add it there, or refresh the creative materials',
    });
    expect(resolveCreative('twin', rows)).toEqual({
      ok: false,
      problem:
        'creatives names "twin", which matches Creatives rows 4, 5: name the material by its creative_md5',
    });
  });
});

describe('the file cell of a Creatives row', () => {
  it.each([
    ['1AbC-dEf_123', {ref: {driveId: '1AbC-dEf_123'}}],
    [
      'https://drive.google.com/file/d/1AbC-dEf_123/view?usp=sharing',
      {ref: {driveId: '1AbC-dEf_123'}},
    ],
    [
      'https://drive.google.com/open?id=1AbC-dEf_123',
      {ref: {driveId: '1AbC-dEf_123'}},
    ],
    [
      'https://cdn.example.com/a%20b.png',
      {ref: {url: 'https://cdn.example.com/a%20b.png'}},
    ],
    [
      'https://drive.google.com/drive/folders',
      {
        problem:
          "is a Google Drive link without a file id: copy the file's own link (https://drive.google.com/drive/folders)",
      },
    ],
    [
      'ftp://files.example.com/a.png',
      {
        problem:
          'must be an https:// link: ftp:// is refused (ftp://files.example.com/a.png)',
      },
    ],
  ])('%s', (cell, expected) => {
    expect(readFileCell(cell)).toEqual(expected);
  });

  it('takes images, videos, HTML and zip playables; refuses other types', () => {
    expect(materialTypeProblem('image/png')).toBeUndefined();
    expect(materialTypeProblem('video/mp4')).toBeUndefined();
    expect(materialTypeProblem('text/html; charset=utf-8')).toBeUndefined();
    expect(materialTypeProblem('application/zip')).toBeUndefined();
    expect(materialTypeProblem('text/plain')).toBe(
      'is of type text/plain, not an image, video or playable (HTML or zip) file',
    );
  });
});
