import type { paths } from './generated/openapi';

/**
 * The public methods' types, read from the types openapi-typescript generates from the service's
 * own OpenAPI document (generated/openapi.ts): a field the service adds or changes shows up here
 * when CI regenerates them, and a client method that no longer fits stops compiling.
 *
 * Production paths are used: the sandbox's are the same operations under `/sandbox`, which is part
 * of the sandbox's base address.
 */
export type ApiPath = keyof paths;
type Method = 'get' | 'post';
type Operation<P extends ApiPath, M extends Method> = NonNullable<paths[P][M]>;
type JsonContent<C> = C extends { content: { 'application/json': infer Body } } ? Body : never;

/** The JSON request body of an operation. */
export type RequestBody<P extends ApiPath, M extends Method> = JsonContent<
  NonNullable<Operation<P, M>['requestBody']>
>;
/** The query parameters of an operation. */
export type QueryParameters<P extends ApiPath, M extends Method> = NonNullable<
  Operation<P, M>['parameters']['query']
>;
/** The JSON body of an operation's success answer (200 or 201). */
export type SuccessBody<P extends ApiPath, M extends Method> = JsonContent<
  Operation<P, M>['responses'][Extract<keyof Operation<P, M>['responses'], 200 | 201>]
>;
