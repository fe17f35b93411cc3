"""`python -m arbiter.pairing`: the pairing engines on tournament report files (TRF), as the
arbiters' programs (JaVaFo, bbpPairings) are used. A thin command line over
arbiter.events.pairing, which stays where the events services import it from."""
