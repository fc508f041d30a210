//! Fancy magic lookups of a rider's attacks on boards of up to 64 squares
//! (the code generator finds the magics and emits the tables).

/// One square's magic lookup of a rider's attacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Magic {
    /// The squares whose occupancy matters.
    pub mask: u64,
    /// The multiplier.
    pub magic: u64,
    /// The right shift of the product.
    pub shift: u32,
    /// Where the square's attack sets start in the attack table.
    pub offset: u32,
}

impl Magic {
    /// The attacks with `occupied` as the occupancy, read from `table`.
    ///
    /// ```
    /// use varc_engine_core::magic::Magic;
    /// // A lookup whose mask is empty has one entry, whatever the occupancy.
    /// let lookup = Magic { mask: 0, magic: 0, shift: 63, offset: 1 };
    /// assert_eq!(lookup.attacks(&[0, 0b110], u64::MAX), 0b110);
    /// ```
    #[inline(always)]
    pub fn attacks(&self, table: &[u64], occupied: u64) -> u64 {
        table[self.offset as usize
            + ((occupied & self.mask).wrapping_mul(self.magic) >> self.shift) as usize]
    }
}
