/* fio's Tausworthe generators' seeding and fio's per-thread seeds; see
 * taus.h. */
#include "util/taus.h"

/* fio's start of the LCG: its "(2^31) + (2^17) + (2^7)", where ^ is C's
 * exclusive or, so 29 + 19 + 5. */
#define TAUS_LCG_START 53u

/* fio's step between two purposes' seeds, and between randseed and the
 * first (four steps). */
#define TAUS_SEED_MUL 0x9e370001ull

/* A component's seed: at least min (the generator's low bits must not all
 * be zero), as fio adds min to one below it. */
static uint64_t above(uint64_t x, uint64_t min)
{
	return x < min ? x + min : x;
}

void taus_seed(struct taus *r, uint64_t seed, bool wide)
{
	static const uint64_t min[5] = { 1, 7, 15, 33, 49 };

	*r = (struct taus){ .wide = wide };
	if (!wide) {
		const uint32_t s = (uint32_t)seed;
		uint32_t x = TAUS_LCG_START;

		for (int i = 0; i < 3; i++)
			x = r->s[i] = (uint32_t)above((uint32_t)(x * 69069u ^ s), min[i]);
	} else {
		uint64_t x = TAUS_LCG_START;

		for (int i = 0; i < 5; i++)
			x = r->t[i] = above(x * 6906969069ull ^ seed, min[i]);
	}
	for (int i = 0; i < 6; i++)
		taus_next(r);
}

uint64_t taus_fio_seed(uint64_t randseed, uint64_t thread, unsigned p)
{
	uint64_t s = randseed;

	for (unsigned i = 0; i < 4 + p; i++)
		s *= TAUS_SEED_MUL;
	return s * thread + p;
}
