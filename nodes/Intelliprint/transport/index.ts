export { apiRequest, CREDENTIAL_TYPE, DEFAULT_BASE_URL } from './request';
export type { ApiRequest, IntelliprintContext } from './request';
export { apiRequestAllItems, MAX_PAGE_SIZE } from './pagination';
export type { ListPage } from './pagination';
export { encodeMultipart, flattenFormFields } from './multipart';
export type { BinaryStream, FilePart, FormObject, FormValue, MultipartBody } from './multipart';
export { downloadFile } from './download';
export type { DownloadedFile } from './download';
export { connectionSettings } from './request';
