using System;

namespace Demo
{
    /// <summary>A widget.</summary>
    [Serializable]
    public class Widget
    {
        public int Size { get; set; }

        [Obsolete]
        public void Grow()
        {
            Size++;
        }

        public void Shrink()
        {
            Size--;
        }
    }
}
