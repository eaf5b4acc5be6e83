"""The searches: the push search (A*/IDA* over pushes), both ends over single steps, backwards over pulls, the tie-break of fewest moves among fewest pushes, a second proof in another process."""
