#ifndef BURROW_BENCHMARKS_LMDB_RECORDS_H
#define BURROW_BENCHMARKS_LMDB_RECORDS_H

// How the raw LMDB baselines store the workload's objects: big-endian id keys, packed records.

#include "workload.h"

/// Largest encoded record: the fixed fields, a name length byte and a name.
#define RECORD_CAPACITY 128

/// Writes `id` as 8 big-endian bytes: keys sort by id.
static inline void encode_key(uint64_t id, unsigned char *key) {
    for (int index = 7; index >= 0; index--) {
        key[index] = (unsigned char)(id & 0xff);
        id >>= 8;
    }
}

/// Encodes object `id` as a packed record: id (8), age (4), score (8), flag (1), blob (16),
/// name length (1), name. Writes the name to `name` too; returns the record's size.
static inline size_t encode_record(int64_t id, unsigned char *record, char *name) {
    int32_t age = workload_age(id);
    double score = workload_score(id);
    int length = workload_name(id, name);
    size_t offset = 0;
    memcpy(record + offset, &id, 8); offset += 8;
    memcpy(record + offset, &age, 4); offset += 4;
    memcpy(record + offset, &score, 8); offset += 8;
    record[offset++] = (unsigned char)workload_flag(id);
    workload_blob(id, record + offset); offset += WORKLOAD_BLOB_SIZE;
    record[offset++] = (unsigned char)length;
    memcpy(record + offset, name, (size_t)length); offset += (size_t)length;
    return offset;
}

/// The age field of an encoded record.
static inline int32_t record_age(const void *record) {
    int32_t age;
    memcpy(&age, (const char *)record + 8, 4);
    return age;
}

/// The fields of an encoded record, decoded (the name and blob point into the record).
typedef struct {
    int64_t id;
    int32_t age;
    double score;
    int flag;
    const unsigned char *blob;
    int name_length;
    const char *name;
} RecordFields;

/// Decodes every field of an encoded record.
static inline RecordFields decode_record(const void *record) {
    const unsigned char *bytes = record;
    RecordFields fields;
    size_t offset = 0;
    memcpy(&fields.id, bytes + offset, 8); offset += 8;
    memcpy(&fields.age, bytes + offset, 4); offset += 4;
    memcpy(&fields.score, bytes + offset, 8); offset += 8;
    fields.flag = bytes[offset++];
    fields.blob = bytes + offset; offset += WORKLOAD_BLOB_SIZE;
    fields.name_length = bytes[offset++];
    fields.name = (const char *)bytes + offset;
    return fields;
}

#endif
