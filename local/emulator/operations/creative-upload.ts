/** POST /api/open/v3/creatives/upload (4.1): one material per distinct content per account. */
import {md5Hex} from '../digest';
import {ApiError, CODE, validationError} from '../envelope';
import type {CreativeType} from '../enums';
import {imageDimensions} from '../image-size';
import type {Material} from '../model';
import type {FormPart} from '../multipart';
import type {DuplicateUploadShape, OperationContext, Settings} from './context';

/** Accepted files (ASSUMED): by extension, and by content type when one is sent. */
const EXTENSIONS: Record<string, CreativeType> = {
  jpg: 'IMAGE',
  jpeg: 'IMAGE',
  png: 'IMAGE',
  gif: 'IMAGE',
  bmp: 'IMAGE',
  mp4: 'VIDEO',
  mov: 'VIDEO',
  webm: 'VIDEO',
  html: 'PLAYABLE',
  htm: 'PLAYABLE',
  zip: 'PLAYABLE',
};
const CONTENT_TYPES: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/bmp': 'bmp',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
  'text/html': 'html',
  'application/zip': 'zip',
  'application/x-zip-compressed': 'zip',
};

export function uploadCreative({
  store,
  account,
  form,
  settings,
}: OperationContext) {
  const file = form.find(
    part => part.name === 'file' && part.filename !== undefined,
  );
  if (!file) throw validationError({file: 'The file field is required.'});
  if (file.data.length === 0) {
    throw validationError({file: 'The file must not be empty.'});
  }
  if (file.data.length > settings.maxUploadBytes) {
    const kilobytes = Math.floor(settings.maxUploadBytes / 1024);
    throw validationError({
      file: `The file may not be greater than ${kilobytes} kilobytes.`,
    });
  }
  const extension = extensionOf(file);
  if (!extension) {
    throw validationError({
      file: `The file must be a file of type: ${Object.keys(EXTENSIONS).join(', ')}.`,
    });
  }
  const md5 = md5Hex(file.data);
  const existing = account.materials.get(md5);
  if (existing) throw alreadyExisted(existing, settings);
  const type = EXTENSIONS[extension];
  const size = type === 'IMAGE' ? imageDimensions(file.data) : undefined;
  const material: Material = {
    accountId: account.accountId,
    creativeId: store.nextId('creative'),
    creative_md5: md5,
    creative_name: creativeName(file.filename!, md5),
    creative_type: type,
    resolution: size ? `${size.width}x${size.height}` : '',
    size: Math.round((file.data.length / 1024) * 100) / 100,
    language: type === 'PLAYABLE' ? 'en' : null,
    platform: type === 'PLAYABLE' ? 'ALL' : null,
    extension,
    bytes: file.data,
  };
  store.addMaterial(material);
  return {creative_md5: md5, creative_name: material.creative_name};
}

/** The duplicate-upload answer in the shape the settings choose (README, assumption 54). */
function alreadyExisted(material: Material, settings: Settings): ApiError {
  const {creative_md5: md5, creative_name: name} = material;
  const answers: Record<DuplicateUploadShape, [number, string, unknown]> = {
    msgAndData: [
      CODE.ALREADY_EXISTED,
      `creative already existed, fmd5: ${md5}, name: ${name}`,
      {fmd5: md5, name},
    ],
    msg: [
      CODE.ALREADY_EXISTED,
      `file already existed, fmd5: ${md5}, name: ${name}`,
      {},
    ],
    data: [CODE.ALREADY_EXISTED, 'already existed', {fmd5: md5, name}],
    dataText: [
      CODE.ALREADY_EXISTED,
      'already existed',
      {file: `The file already existed (fmd5: ${md5}, name: ${name})`},
    ],
    validation: [
      CODE.VALIDATION,
      'error',
      {
        file: `The file has already existed (fmd5 ${md5}).`,
        'file.creative_name': `The creative_name has already existed: ${name}`,
      },
    ],
    md5Only: [CODE.ALREADY_EXISTED, 'creative already existed', {fmd5: md5}],
    nested: [
      CODE.ALREADY_EXISTED,
      'already existed',
      {existed: {fmd5: md5, creative_name: name}},
    ],
  };
  const [code, msg, data] = answers[settings.duplicateUploadShape];
  return new ApiError(code, msg, data, settings.duplicateUploadStatus);
}

/** A known content type decides; a generic or missing one leaves it to the file name. */
function extensionOf(file: FormPart): string | undefined {
  const contentType = (file.contentType ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (CONTENT_TYPES[contentType]) return CONTENT_TYPES[contentType];
  const extension = /\.([A-Za-z0-9]+)$/
    .exec(file.filename ?? '')?.[1]
    .toLowerCase();
  return extension && EXTENSIONS[extension] ? extension : undefined;
}

/** The file name without its extension, each character outside [A-Za-z0-9_] made '_'. */
function creativeName(filename: string, md5: string): string {
  const base = filename.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
  const name = base.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 100);
  return name || `creative_${md5.slice(0, 8)}`;
}
