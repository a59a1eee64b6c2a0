// The floor of reading an encrypted file: libsodium alone opening sealed values as Burrow seals
// each row (XChaCha20-Poly1305 with a 24-byte nonce stored before the ciphertext, the associated
// data the value's database id and its 8-byte key), with no storage around it.

#include "Baselines.h"
#include "workload.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

/// Distinct sealed values opened round-robin: enough that they are not all in one cache line,
/// few enough that building them is not the measurement.
#define SODIUM_FLOOR_VALUES 4096

BaselineStep sodium_open_floor(long count, int size) {
    if (sodium_init() < 0) workload_fail(__FILE__, __LINE__, "sodium_init failed");
    const size_t overhead = crypto_aead_xchacha20poly1305_ietf_NPUBBYTES + crypto_aead_xchacha20poly1305_ietf_ABYTES;
    const size_t sealed_size = (size_t)size + overhead;
    unsigned char key[crypto_aead_xchacha20poly1305_ietf_KEYBYTES];
    randombytes_buf(key, sizeof key);
    unsigned char *sealed = malloc(sealed_size * SODIUM_FLOOR_VALUES);
    unsigned char *plaintext = malloc((size_t)size);
    if (sealed == NULL || plaintext == NULL) workload_fail(__FILE__, __LINE__, "out of memory");
    unsigned char associated[16];
    memset(associated, 0, sizeof associated);

    // Untimed: the sealed values, each under the key of an object.
    for (long index = 0; index < SODIUM_FLOOR_VALUES; index++) {
        unsigned char *value = sealed + (size_t)index * sealed_size;
        memset(plaintext, (int)(index & 0xff), (size_t)size);
        randombytes_buf(value, crypto_aead_xchacha20poly1305_ietf_NPUBBYTES);
        memcpy(associated + 8, &index, sizeof index);
        crypto_aead_xchacha20poly1305_ietf_encrypt(value + crypto_aead_xchacha20poly1305_ietf_NPUBBYTES, NULL, plaintext,
                                                   (unsigned long long)size, associated, sizeof associated, NULL, value, key);
    }

    double start = workload_now();
    long long opened = 0;
    for (long step = 0; step < count; step++) {
        long index = step % SODIUM_FLOOR_VALUES;
        const unsigned char *value = sealed + (size_t)index * sealed_size;
        memcpy(associated + 8, &index, sizeof index);
        unsigned long long length = 0;
        if (crypto_aead_xchacha20poly1305_ietf_decrypt(plaintext, &length, NULL, value + crypto_aead_xchacha20poly1305_ietf_NPUBBYTES,
                                                       sealed_size - crypto_aead_xchacha20poly1305_ietf_NPUBBYTES, associated,
                                                       sizeof associated, value, key) == 0 && length == (unsigned long long)size) {
            opened++;
        }
    }
    double seconds = workload_now() - start;
    free(sealed);
    free(plaintext);
    return (BaselineStep){seconds, opened};
}
